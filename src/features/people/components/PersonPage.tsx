// A person's page (issue 30): face and name (rename, merge), the faces given to them (each can be
// taken away), and every scene that shows them. A person merged away or an emptied group is gone:
// the page says so and leads back to People.
import { Box, Text } from '@chakra-ui/react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useParams } from 'wouter';
import { AppLink } from '../../../components/AppLink';
import { ROUTES } from '../../../config/routes';
import { useT } from '../../../lib/locale-context';
import { useGetPersonQuery } from '../api';
import { PersonFaces } from './PersonFaces';
import { PersonHeader } from './PersonHeader';
import { PersonScenes } from './PersonScenes';

export function PersonPage() {
  const t = useT();
  const { id } = useParams<{ id: string }>();
  const { data: person, error } = useGetPersonQuery(id ?? skipToken);
  const gone = error !== undefined && 'status' in error && error.status === 404;
  return (
    <Box>
      <AppLink href={ROUTES.people} color="blue.700" display="inline-block" mb="4">
        {t('people.back')}
      </AppLink>
      {gone ? <Text>{t('people.notFound')}</Text> : null}
      {error && !gone ? <Text color="red.700">{t('people.loadError')}</Text> : null}
      {person && id && !gone ? (
        <>
          <PersonHeader person={person} />
          <PersonFaces personId={id} />
          <PersonScenes personId={id} />
        </>
      ) : null}
    </Box>
  );
}
