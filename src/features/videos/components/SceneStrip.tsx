// The horizontal strip of scene thumbnails with index and start/end times. A scene out of the
// strip's view skips style and layout (content-visibility): with 200 scenes the strip held 1,000
// of the page's 1,760 elements, and a dialog opening over the page restyles all of them (issue 29).
import { Box, chakra, Flex, Text } from '@chakra-ui/react';
import { memo } from 'react';
import { Thumbnail } from '../../../components/Thumbnail';
import { assetUrl } from '../../../lib/asset-url';
import { useT } from '../../../lib/locale-context';
import type { Scene } from '../api';
import { shortTime } from '../frames';

const SceneButton = chakra('button', {
  base: {
    flexShrink: 0,
    textAlign: 'left',
    p: '1.5',
    borderWidth: '2px',
    borderRadius: 'l2',
    cursor: 'pointer',
    bg: 'white',
    _focusVisible: { outline: '2px solid', outlineColor: 'blue.600' },
  },
});

interface SceneStripProps {
  scenes: Scene[];
  selected: number | null;
  onSelect: (index: number) => void;
}

export const SceneStrip = memo(function SceneStrip({
  scenes,
  selected,
  onSelect,
}: SceneStripProps) {
  const t = useT();
  return (
    <Flex
      as="ul"
      listStyleType="none"
      gap="2"
      overflowX="auto"
      pb="2"
      aria-label={t('detail.scenes')}
    >
      {scenes.map((scene) => {
        const active = scene.index === selected;
        return (
          <Box
            as="li"
            key={scene.index}
            id={`scene-strip-${scene.index}`}
            css={{ contentVisibility: 'auto', containIntrinsicSize: 'auto 144px auto 124px' }}
          >
            <SceneButton
              type="button"
              aria-pressed={active}
              borderColor={active ? 'blue.600' : 'gray.200'}
              onClick={() => onSelect(scene.index)}
            >
              <Thumbnail
                src={assetUrl(scene.thumbnail)}
                alt={t('detail.sceneNumber', { n: scene.index })}
                width={128}
                height={72}
              />
              <Text fontSize="xs" fontWeight="semibold" mt="1">
                #{scene.index}
              </Text>
              <Text fontSize="xs" color="gray.700">
                {shortTime(scene.startTime)} - {shortTime(scene.endTime)}
              </Text>
            </SceneButton>
          </Box>
        );
      })}
    </Flex>
  );
});
