// The faces given to a person, each with "Not this person" to take it away for good (issue 30).
import { Box, Button, Grid, Heading, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Thumbnail } from '../../../components/Thumbnail';
import { assetUrl } from '../../../lib/asset-url';
import { describeServerError } from '../../../lib/error-messages';
import { useT } from '../../../lib/locale-context';
import { useListPersonFacesQuery, useRejectFaceMutation } from '../api';
import { usePageParam } from '../use-page-param';
import { ListPager } from './ListPager';

export function PersonFaces({ personId }: { personId: string }) {
  const t = useT();
  const [page, setPage] = usePageParam('faces');
  const { data, isError } = useListPersonFacesQuery({ id: personId, page });
  const [rejectFace] = useRejectFaceMutation();
  const [rejecting, setRejecting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reject = async (faceId: string) => {
    setError(null);
    setRejecting(faceId);
    try {
      await rejectFace({ personId, faceId }).unwrap();
    } catch (failure) {
      setError(describeServerError(failure, t('common.unknownError')));
    } finally {
      setRejecting(null);
    }
  };

  return (
    <Box as="section" aria-labelledby="person-faces" mb="10">
      <Heading as="h2" size="lg" id="person-faces" mb="3">
        {t('people.faces')}
      </Heading>
      {isError ? <Text color="red.700">{t('people.loadError')}</Text> : null}
      {error ? (
        <Text role="alert" color="red.700" mb="2">
          {error}
        </Text>
      ) : null}
      {data && data.items.length > 0 ? (
        <Grid
          as="ul"
          listStyleType="none"
          templateColumns="repeat(auto-fill, minmax(7.5rem, 1fr))"
          gap="4"
        >
          {data.items.map((face) => {
            const where = {
              title: face.videoTitle ?? t('people.untitled'),
              n: face.sceneIndex,
            };
            return (
              <Box as="li" key={face.id} data-testid="person-face">
                <Thumbnail
                  src={assetUrl(face.faceUrl)}
                  alt={t('people.faceIn', where)}
                  width={120}
                  height={120}
                />
                <Text fontSize="xs" color="gray.700" mt="1" lineClamp={1}>
                  {t('people.faceIn', where)}
                </Text>
                <Button
                  size="xs"
                  variant="outline"
                  mt="1"
                  loading={rejecting === face.id}
                  aria-label={t('people.notThisPersonIn', where)}
                  onClick={() => void reject(face.id)}
                >
                  {t('people.notThisPerson')}
                </Button>
              </Box>
            );
          })}
        </Grid>
      ) : null}
      <ListPager data={data} onPage={setPage} label={t('people.facePages')} />
    </Box>
  );
}
