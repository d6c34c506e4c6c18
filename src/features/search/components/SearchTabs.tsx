// Video search / scene search tabs (WAI-ARIA tabs: arrow keys move between the two).
import { chakra, Flex } from '@chakra-ui/react';
import type { KeyboardEvent } from 'react';
import { useT } from '../../../lib/locale-context';

const Tab = chakra('button', {
  base: {
    px: '4',
    py: '2',
    fontWeight: 'medium',
    borderBottomWidth: '2px',
    borderColor: 'transparent',
    color: 'gray.700',
    cursor: 'pointer',
    _selected: { borderColor: 'blue.600', color: 'blue.800' },
    _focusVisible: { outline: '2px solid', outlineColor: 'blue.600' },
  },
});

export function SearchTabs({
  video,
  onChange,
}: {
  video: boolean;
  onChange: (video: boolean) => void;
}) {
  const t = useT();
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      onChange(!video);
      const next = event.currentTarget.parentElement?.querySelector<HTMLElement>(
        `[data-tab="${video ? 'scene' : 'video'}"]`,
      );
      next?.focus();
    }
  };
  return (
    <Flex role="tablist" aria-label={t('search.kind')} borderBottomWidth="1px">
      <Tab
        type="button"
        role="tab"
        data-tab="video"
        aria-selected={video}
        tabIndex={video ? 0 : -1}
        onClick={() => onChange(true)}
        onKeyDown={onKeyDown}
      >
        {t('search.videoTab')}
      </Tab>
      <Tab
        type="button"
        role="tab"
        data-tab="scene"
        aria-selected={!video}
        tabIndex={video ? -1 : 0}
        onClick={() => onChange(false)}
        onKeyDown={onKeyDown}
      >
        {t('search.sceneTab')}
      </Tab>
    </Flex>
  );
}
