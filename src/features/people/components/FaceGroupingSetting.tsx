// The team setting "Group faces across the archive" (issue 30). Only a team administrator may
// change it; turning it off deletes the unnamed groups, so it asks first.
import { Box, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LazyAppModal } from '../../../components/LazyAppModal';
import { describeServerError } from '../../../lib/error-messages';
import { useT } from '../../../lib/locale-context';
import { useGetFaceGroupingQuery, useSetFaceGroupingMutation } from '../api';
import styles from './people-form.module.css';

export function FaceGroupingSetting() {
  const t = useT();
  const { data } = useGetFaceGroupingQuery();
  const [setGrouping, { isLoading }] = useSetFaceGroupingMutation();
  const [confirmOff, setConfirmOff] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!data) return null;

  const change = async (enabled: boolean) => {
    setError(null);
    try {
      await setGrouping(enabled).unwrap();
    } catch (failure) {
      setError(describeServerError(failure, t('common.unknownError')));
    }
  };
  const hintId = 'face-grouping-hint';

  return (
    <Box as="section" borderWidth="1px" borderRadius="l3" p="4" mb="8" bg="gray.50">
      <label className={styles.setting}>
        <input
          type="checkbox"
          role="switch"
          className={styles.switch}
          checked={data.enabled}
          disabled={!data.canChange || isLoading}
          aria-describedby={hintId}
          onChange={(event) => {
            if (event.target.checked) void change(true);
            else setConfirmOff(true);
          }}
        />
        {t('people.setting.label')}
      </label>
      <Text id={hintId} fontSize="sm" color="gray.700" mt="2">
        {t('people.setting.description')}
        {data.canChange ? null : ` ${t('people.setting.notAdmin')}`}
      </Text>
      {error ? (
        <Text role="alert" color="red.700" mt="2">
          {error}
        </Text>
      ) : null}
      <LazyAppModal
        open={confirmOff}
        type="warning"
        lines={[t('people.setting.confirmOff')]}
        confirmLabel={t('people.setting.turnOff')}
        onClose={() => setConfirmOff(false)}
        onConfirm={() => {
          setConfirmOff(false);
          void change(false);
        }}
      />
    </Box>
  );
}
