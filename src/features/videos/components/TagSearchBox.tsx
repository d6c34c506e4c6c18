// The tag search box of the video list: Enter searches, the clear button empties the filter.
// Both ask the server, so offline they are disabled with the reason (issue 8).
import { chakra, Flex, IconButton } from '@chakra-ui/react';
import { useState } from 'react';
import { ClearIcon } from '../../../components/ActionIcons';
import { NeedsNetwork } from '../../../components/NeedsNetwork';
import { useT } from '../../../lib/locale-context';

const Input = chakra('input', {
  base: {
    h: '10',
    w: 'full',
    pl: '3',
    pr: '10',
    borderWidth: '1px',
    borderColor: 'gray.400',
    borderRadius: 'l2',
    bg: 'white',
    _focusVisible: { outline: '2px solid', outlineColor: 'blue.600', outlineOffset: '0' },
  },
});

export function TagSearchBox({
  initial,
  onSearch,
}: {
  initial: string;
  onSearch: (value: string) => void;
}) {
  const t = useT();
  const [value, setValue] = useState(initial);
  return (
    <Flex position="relative" flex="1" minW="12rem" maxW="28rem" role="search">
      <NeedsNetwork>
        <Input
          type="search"
          aria-label={t('videos.searchTags')}
          placeholder={t('videos.searchTagsPlaceholder')}
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') onSearch(value);
          }}
        />
      </NeedsNetwork>
      {value !== '' ? (
        <NeedsNetwork>
          <IconButton
            aria-label={t('videos.clearSearch')}
            variant="ghost"
            size="sm"
            position="absolute"
            right="1"
            top="1"
            onClick={() => {
              setValue('');
              onSearch('');
            }}
          >
            <ClearIcon />
          </IconButton>
        </NeedsNetwork>
      ) : null}
    </Flex>
  );
}
