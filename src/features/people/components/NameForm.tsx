// Names a group or renames a person (issue 30). When the typed name is already another person's,
// it offers "Add to <name>", which merges this one into that person; the server's refusals
// (duplicate, empty, overlong) show in its own words under the field.
import { Button } from '@chakra-ui/react';
import { useId, useState, type FormEvent } from 'react';
import { PEOPLE_MAX_PAGE_SIZE } from '../../../config/limits';
import { describeServerError } from '../../../lib/error-messages';
import { useT } from '../../../lib/locale-context';
import {
  useListPeopleQuery,
  useMergePersonMutation,
  useNamePersonMutation,
  type PersonSummary,
} from '../api';
import styles from './people-form.module.css';

interface NameFormProps {
  person: PersonSummary;
  /** Called with the answer of the rename, or with the person this one was merged into. */
  onDone?: (outcome: { merged: boolean; person: PersonSummary }) => void;
  onCancel?: () => void;
}

/** The named people to suggest (the API's largest page: teams rarely name more). */
export function useNamedPeople(): PersonSummary[] {
  const { data } = useListPeopleQuery({ named: true, page: 1, size: PEOPLE_MAX_PAGE_SIZE });
  return data?.items ?? [];
}

export function NameForm({ person, onDone, onCancel }: NameFormProps) {
  const t = useT();
  const id = useId();
  const listId = `${id}-names`;
  const errorId = `${id}-error`;
  const [name, setName] = useState(person.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const [namePerson, naming] = useNamePersonMutation();
  const [mergePerson, merging] = useMergePersonMutation();
  const others = useNamedPeople().filter((other) => other.id !== person.id);
  const typed = name.trim().toLocaleLowerCase();
  const match = typed ? others.find((other) => other.name?.toLocaleLowerCase() === typed) : null;
  const busy = naming.isLoading || merging.isLoading;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setError(null);
    try {
      const saved = await namePerson({ id: person.id, name }).unwrap();
      onDone?.({ merged: false, person: saved });
    } catch (failure) {
      setError(describeServerError(failure, t('common.unknownError')));
    }
  };

  const addTo = async (into: PersonSummary) => {
    if (busy) return;
    setError(null);
    try {
      const merged = await mergePerson({ id: person.id, into: into.id }).unwrap();
      onDone?.({ merged: true, person: merged });
    } catch (failure) {
      setError(describeServerError(failure, t('common.unknownError')));
    }
  };

  return (
    <form onSubmit={(event) => void save(event)} noValidate>
      <label className={styles.label} htmlFor={id}>
        {t('people.nameLabel')}
      </label>
      <div className={styles.row}>
        <input
          id={id}
          className={styles.input}
          value={name}
          list={listId}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        <Button type="submit" colorPalette="blue" loading={naming.isLoading}>
          {t('people.save')}
        </Button>
        {onCancel ? (
          <Button variant="outline" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        ) : null}
      </div>
      <datalist id={listId}>
        {others.map((other) => (
          <option key={other.id} value={other.name ?? ''} />
        ))}
      </datalist>
      {error ? (
        <p id={errorId} role="alert" className={styles.error}>
          {error}
        </p>
      ) : null}
      {match ? (
        <Button
          mt="2"
          size="sm"
          variant="outline"
          colorPalette="blue"
          loading={merging.isLoading}
          onClick={() => void addTo(match)}
        >
          {t('people.addTo', { name: match.name ?? '' })}
        </Button>
      ) : null}
    </form>
  );
}
