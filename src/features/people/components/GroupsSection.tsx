// The unnamed groups, biggest first, paged: a few face crops, the counts, and a name field.
import { Box, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { EmptyState } from '../../../components/EmptyState';
import { RouteLink } from '../../../components/RouteLink';
import { Thumbnail } from '../../../components/Thumbnail';
import { personPath } from '../../../config/routes';
import { assetUrl } from '../../../lib/asset-url';
import { useT } from '../../../lib/locale-context';
import { useListPeopleQuery, type PersonSummary } from '../api';
import { usePageParam } from '../use-page-param';
import { ListPager } from './ListPager';
import { NameForm } from './NameForm';
import { PersonCounts } from './PersonCounts';

export function GroupsSection({ groupingOff }: { groupingOff: boolean }) {
  const t = useT();
  const [page, setPage] = usePageParam('groups');
  const { data, isError } = useListPeopleQuery({ named: false, page });
  return (
    <Box as="section" aria-labelledby="people-groups">
      <Heading as="h2" size="lg" id="people-groups" mb="1">
        {t('people.groups')}
      </Heading>
      <Text color="gray.700" mb="4">
        {t('people.groupsHint')}
      </Text>
      {isError ? <Text color="red.700">{t('people.loadError')}</Text> : null}
      {data?.total === 0 ? (
        <EmptyState
          title={t('people.emptyGroupsTitle')}
          description={
            groupingOff ? t('people.emptyGroupsOff') : t('people.emptyGroupsDescription')
          }
        />
      ) : null}
      {data && data.items.length > 0 ? (
        <Stack as="ul" listStyleType="none" gap="4" aria-labelledby="people-groups">
          {data.items.map((group, index) => (
            <GroupCard
              key={group.id}
              group={group}
              number={(data.page - 1) * data.size + index + 1}
            />
          ))}
        </Stack>
      ) : null}
      <ListPager data={data} onPage={setPage} label={t('people.groupPages')} />
    </Box>
  );
}

function GroupCard({ group, number }: { group: PersonSummary; number: number }) {
  const t = useT();
  return (
    <Box as="li" borderWidth="1px" borderRadius="l3" p="4" data-testid="face-group">
      <Flex gap="4" wrap="wrap" align="flex-start">
        <Box>
          <RouteLink
            href={personPath(group.id)}
            aria-label={t('people.openGroup', { n: number })}
            style={{ display: 'flex', gap: '0.5rem' }}
          >
            {group.faces.slice(0, 4).map((face, index) => (
              <Thumbnail
                key={face}
                src={assetUrl(face)}
                alt={t('people.groupFace', { n: index + 1 })}
                width={64}
                height={64}
              />
            ))}
          </RouteLink>
          <Box mt="1">
            <PersonCounts person={group} />
          </Box>
        </Box>
        <Box flex="1" minW="14rem">
          <NameForm person={group} />
        </Box>
      </Flex>
    </Box>
  );
}
