// The team's named people, by name, paged: face, name and counts; each opens the person's page.
import { Box, Grid, Heading, Text } from '@chakra-ui/react';
import { EmptyState } from '../../../components/EmptyState';
import { RouteLink } from '../../../components/RouteLink';
import { Thumbnail } from '../../../components/Thumbnail';
import { personPath } from '../../../config/routes';
import { assetUrl } from '../../../lib/asset-url';
import { useT } from '../../../lib/locale-context';
import { useListPeopleQuery } from '../api';
import { usePageParam } from '../use-page-param';
import { ListPager } from './ListPager';
import { PersonCounts } from './PersonCounts';

export function NamedPeopleSection() {
  const t = useT();
  const [page, setPage] = usePageParam('named');
  const { data, isError } = useListPeopleQuery({ named: true, page });
  return (
    <Box as="section" aria-labelledby="people-named" mb="10">
      <Heading as="h2" size="lg" id="people-named" mb="3">
        {t('people.named')}
      </Heading>
      {isError ? <Text color="red.700">{t('people.loadError')}</Text> : null}
      {data?.total === 0 ? (
        <EmptyState
          title={t('people.emptyNamedTitle')}
          description={t('people.emptyNamedDescription')}
        />
      ) : null}
      {data && data.items.length > 0 ? (
        <Grid
          as="ul"
          listStyleType="none"
          templateColumns="repeat(auto-fill, minmax(9rem, 1fr))"
          gap="4"
          aria-labelledby="people-named"
        >
          {data.items.map((person) => (
            <Box as="li" key={person.id} data-testid="named-person">
              <RouteLink href={personPath(person.id)} style={{ display: 'block' }}>
                <Thumbnail
                  src={assetUrl(person.faceUrl)}
                  alt={t('people.faceOf', { name: person.name ?? '' })}
                  width={144}
                  height={144}
                />
                <Text fontWeight="semibold" mt="2" color="blue.800" lineClamp={2}>
                  {person.name}
                </Text>
              </RouteLink>
              <PersonCounts person={person} />
            </Box>
          ))}
        </Grid>
      ) : null}
      <ListPager data={data} onPage={setPage} label={t('people.namedPages')} />
    </Box>
  );
}
