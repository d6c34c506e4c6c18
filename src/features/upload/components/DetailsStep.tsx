// Step 1 of the upload dialog: about the video, the people in it, and the trailer option.
import { Button, Flex, Stack } from '@chakra-ui/react';
import { useId } from 'react';
import { TEXT_AREA_MAX_LENGTH } from '../../../config/limits';
import { useT } from '../../../lib/locale-context';
import { canGoNext, emptyPerson, type DetailsDraft } from '../upload-rules';
import { CharCount, Label, TextArea } from './form-parts';
import { PersonEntry } from './PersonEntry';

interface DetailsStepProps {
  details: DetailsDraft;
  onChange: (details: DetailsDraft) => void;
  onCancel: () => void;
  onNext: () => void;
}

export function DetailsStep({ details, onChange, onCancel, onNext }: DetailsStepProps) {
  const t = useT();
  const id = useId();
  const set = (changes: Partial<DetailsDraft>): void => onChange({ ...details, ...changes });

  return (
    <Stack gap="5">
      <div>
        <Label htmlFor={`${id}-about`}>{t('upload.about')}</Label>
        <TextArea
          id={`${id}-about`}
          value={details.about}
          maxLength={TEXT_AREA_MAX_LENGTH}
          onChange={(event) => set({ about: event.target.value })}
        />
        <CharCount count={details.about.length} max={TEXT_AREA_MAX_LENGTH} />
      </div>

      <Stack gap="3">
        <Label as="span">{t('upload.people')}</Label>
        {details.people.map((person, index) => (
          <PersonEntry
            key={person.key}
            index={index}
            person={person}
            onChange={(next) =>
              set({ people: details.people.map((p) => (p.key === next.key ? next : p)) })
            }
            onRemove={() => set({ people: details.people.filter((p) => p.key !== person.key) })}
          />
        ))}
        <Button
          alignSelf="flex-start"
          size="sm"
          variant="outline"
          onClick={() => set({ people: [...details.people, emptyPerson()] })}
        >
          {t('upload.addPeople')}
        </Button>
      </Stack>

      <div>
        <Flex as="label" align="center" gap="2" cursor="pointer">
          <input
            type="checkbox"
            checked={details.makeTrailer}
            onChange={(event) => set({ makeTrailer: event.target.checked })}
          />
          {t('upload.makeTrailer')}
        </Flex>
        {details.makeTrailer ? (
          <Stack mt="3" gap="0">
            <Label htmlFor={`${id}-trailer`}>{t('upload.trailerInstruction')}</Label>
            <TextArea
              id={`${id}-trailer`}
              value={details.trailerInstruction}
              maxLength={TEXT_AREA_MAX_LENGTH}
              onChange={(event) => set({ trailerInstruction: event.target.value })}
            />
            <CharCount count={details.trailerInstruction.length} max={TEXT_AREA_MAX_LENGTH} />
          </Stack>
        ) : null}
      </div>

      <Flex justify="flex-end" gap="3">
        <Button variant="outline" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button colorPalette="blue" disabled={!canGoNext(details)} onClick={onNext}>
          {t('upload.next')}
        </Button>
      </Flex>
    </Stack>
  );
}
