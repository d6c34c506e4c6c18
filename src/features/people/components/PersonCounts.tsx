// "3 videos · 12 scenes" under a person or a group.
import { Text } from '@chakra-ui/react';
import { useT } from '../../../lib/locale-context';
import type { PersonSummary } from '../api';

export function PersonCounts({ person }: { person: PersonSummary }) {
  const t = useT();
  return (
    <Text fontSize="sm" color="gray.700">
      {t('people.counts', { videos: person.videoCount, scenes: person.sceneCount })}
    </Text>
  );
}
