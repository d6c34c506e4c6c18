// The People page (issue 30): the team's face-grouping setting, its named people, then the
// unnamed groups of faces that recur across the archive, to name or add to someone.
import { Box, Heading } from '@chakra-ui/react';
import { useT } from '../../../lib/locale-context';
import { useGetFaceGroupingQuery } from '../api';
import { FaceGroupingSetting } from './FaceGroupingSetting';
import { GroupsSection } from './GroupsSection';
import { NamedPeopleSection } from './NamedPeopleSection';

export function PeoplePage() {
  const t = useT();
  const { data: grouping } = useGetFaceGroupingQuery();
  return (
    <Box>
      <Heading as="h1" size="2xl" mb="6">
        {t('people.title')}
      </Heading>
      <FaceGroupingSetting />
      <NamedPeopleSection />
      <GroupsSection groupingOff={grouping?.enabled === false} />
    </Box>
  );
}
