// The video's people (issue 16): each uploaded person and anyone of the team recognised, with
// the scenes where their face was recognised (a link selects the scene), and a note when a
// people image cannot be used because it shows no face or several.
import { Box, Button, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { useT } from '../../../lib/locale-context';
import type { Person } from '../api';

export interface PeopleListProps {
  people: Person[];
  /** The analysis is over: an empty scene list then means "not recognised". */
  analysed: boolean;
  onSelectScene: (index: number) => void;
}

export function PeopleList({ people, analysed, onSelectScene }: PeopleListProps) {
  const t = useT();
  if (people.length === 0) return null;
  return (
    <Stack as="section" gap="2" mb="6" aria-labelledby="detail-people">
      <Heading as="h2" size="lg" id="detail-people">
        {t('detail.people')}
      </Heading>
      <Stack as="ul" listStyleType="none" gap="2">
        {people.map((person) => (
          <Box as="li" key={person.name} data-testid="person">
            <Flex gap="2" align="center" wrap="wrap">
              <Text fontWeight="semibold">{person.name}</Text>
              {person.scenes.map((index) => (
                <Button
                  key={index}
                  size="xs"
                  variant="outline"
                  aria-label={t('detail.personInScene', { name: person.name, n: index })}
                  onClick={() => onSelectScene(index)}
                >
                  {t('detail.sceneNumber', { n: index })}
                </Button>
              ))}
            </Flex>
            {person.faceFound === 'none' ? (
              <Text fontSize="sm" color="orange.700">
                {t('detail.personNoFace')}
              </Text>
            ) : person.faceFound === 'several' ? (
              <Text fontSize="sm" color="orange.700">
                {t('detail.personSeveralFaces')}
              </Text>
            ) : analysed && person.scenes.length === 0 ? (
              <Text fontSize="sm" color="gray.700">
                {t('detail.personNotSeen')}
              </Text>
            ) : null}
          </Box>
        ))}
      </Stack>
    </Stack>
  );
}
