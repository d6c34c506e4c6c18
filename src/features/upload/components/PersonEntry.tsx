// One person of the upload: a name and a reference image (jpeg, png, jpg or svg up to 10 MB).
import { Box, Button, Flex, Text } from '@chakra-ui/react';
import { useId, useRef } from 'react';
import { useT } from '../../../lib/locale-context';
import { imageFileError, isIncompletePerson, type PersonDraft } from '../upload-rules';
import { ErrorText, Label, TextInput } from './form-parts';

const IMAGE_ACCEPT = '.jpeg,.jpg,.png,.svg,image/jpeg,image/png,image/svg+xml';

interface PersonEntryProps {
  index: number;
  person: PersonDraft;
  onChange: (person: PersonDraft) => void;
  onRemove: () => void;
}

export function PersonEntry({ index, person, onChange, onRemove }: PersonEntryProps) {
  const t = useT();
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const incomplete = isIncompletePerson(person);
  const errorId = `${id}-error`;

  const pickImage = (file: File | undefined): void => {
    if (!file) return;
    const imageError = imageFileError(file);
    onChange({ ...person, image: imageError ? null : file, imageError });
  };

  return (
    <Box
      as="fieldset"
      borderWidth="1px"
      borderColor={incomplete ? 'red.600' : 'gray.300'}
      borderRadius="l2"
      p="3"
      aria-describedby={incomplete ? errorId : undefined}
    >
      <Flex justify="space-between" align="center" mb="2">
        <Text as="legend" fontWeight="semibold" fontSize="sm">
          {t('upload.personN', { index: index + 1 })}
        </Text>
        <Button
          size="xs"
          variant="ghost"
          colorPalette="red"
          onClick={onRemove}
          aria-label={t('upload.removePersonN', { index: index + 1 })}
        >
          {t('upload.removePerson')}
        </Button>
      </Flex>
      <Label htmlFor={`${id}-name`}>{t('upload.personName')}</Label>
      <TextInput
        id={`${id}-name`}
        value={person.name}
        maxLength={100}
        onChange={(event) => onChange({ ...person, name: event.target.value })}
      />
      <Flex mt="3" gap="3" align="center" wrap="wrap">
        <input
          ref={fileInput}
          id={`${id}-image`}
          type="file"
          accept={IMAGE_ACCEPT}
          hidden
          aria-label={t('upload.personImageN', { index: index + 1 })}
          onChange={(event) => {
            pickImage(event.target.files?.[0]);
            event.target.value = ''; // choosing the same file again still fires a change
          }}
        />
        <Button size="sm" variant="outline" onClick={() => fileInput.current?.click()}>
          {person.image ? t('upload.changeImage') : t('upload.chooseImage')}
        </Button>
        {person.image ? (
          <Text fontSize="sm" color="gray.700" truncate maxW="60%">
            {person.image.name}
          </Text>
        ) : null}
      </Flex>
      {person.imageError ? <ErrorText>{t(person.imageError)}</ErrorText> : null}
      {incomplete ? <ErrorText id={errorId}>{t('upload.personIncomplete')}</ErrorText> : null}
    </Box>
  );
}
