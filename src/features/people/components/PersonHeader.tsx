// A person's face and name with Rename, and Merge into another named person (issue 30).
import { Box, Button, Flex, Heading, Stack } from '@chakra-ui/react';
import { useId, useState } from 'react';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { Thumbnail } from '../../../components/Thumbnail';
import { personPath } from '../../../config/routes';
import { assetUrl } from '../../../lib/asset-url';
import { describeServerError } from '../../../lib/error-messages';
import { useT } from '../../../lib/locale-context';
import { navigateTo } from '../../../lib/navigation';
import { useMergePersonMutation, type PersonSummary } from '../api';
import { NameForm, useNamedPeople } from './NameForm';
import { PersonCounts } from './PersonCounts';
import styles from './people-form.module.css';

export function PersonHeader({ person }: { person: PersonSummary }) {
  const t = useT();
  const [renaming, setRenaming] = useState(false);
  const label = person.name ?? t('people.unnamed');
  const toMergedPerson = ({ merged, person: into }: { merged: boolean; person: PersonSummary }) => {
    setRenaming(false);
    if (merged) navigateTo(personPath(into.id), { replace: true });
  };
  return (
    <Flex gap="6" wrap="wrap" mb="8" align="flex-start">
      <Thumbnail
        src={assetUrl(person.faceUrl ?? person.faces[0])}
        alt={t('people.faceOf', { name: label })}
        width={128}
        height={128}
        eager
      />
      <Stack gap="3" flex="1" minW="16rem">
        <Heading as="h1" size="2xl">
          {label}
        </Heading>
        <PersonCounts person={person} />
        {renaming ? (
          <NameForm person={person} onDone={toMergedPerson} onCancel={() => setRenaming(false)} />
        ) : (
          <Box>
            <Button size="sm" variant="outline" onClick={() => setRenaming(true)}>
              {person.name ? t('people.rename') : t('people.giveName')}
            </Button>
          </Box>
        )}
        <MergeForm person={person} />
      </Stack>
    </Flex>
  );
}

function MergeForm({ person }: { person: PersonSummary }) {
  const t = useT();
  const others = useNamedPeople().filter((other) => other.id !== person.id);
  const selectId = useId();
  const [intoId, setIntoId] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [mergePerson, { isLoading }] = useMergePersonMutation();
  const into = others.find((other) => other.id === intoId) ?? null;
  if (others.length === 0) return null;

  const merge = async () => {
    setConfirming(false);
    if (!into) return;
    setError(null);
    try {
      const merged = await mergePerson({ id: person.id, into: into.id }).unwrap();
      navigateTo(personPath(merged.id), { replace: true });
    } catch (failure) {
      setError(describeServerError(failure, t('common.unknownError')));
    }
  };

  return (
    <Box>
      <label className={styles.label} htmlFor={selectId}>
        {t('people.mergeLabel')}
      </label>
      <div className={styles.row}>
        <select
          id={selectId}
          className={styles.select}
          value={intoId}
          onChange={(event) => setIntoId(event.target.value)}
        >
          <option value="">{t('people.mergeChoose')}</option>
          {others.map((other) => (
            <option key={other.id} value={other.id}>
              {other.name}
            </option>
          ))}
        </select>
        <Button
          variant="outline"
          disabled={!into}
          loading={isLoading}
          onClick={() => setConfirming(true)}
        >
          {t('people.merge')}
        </Button>
      </div>
      {error ? (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      ) : null}
      <LazyAppModal
        open={confirming}
        type="warning"
        lines={[
          t('people.mergeConfirm', {
            from: person.name ?? t('people.unnamed'),
            into: into?.name ?? '',
          }),
        ]}
        confirmLabel={t('people.merge')}
        onClose={() => setConfirming(false)}
        onConfirm={() => void merge()}
      />
    </Box>
  );
}
