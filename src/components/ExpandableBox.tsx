// Content collapsed to a fixed height with View More / View Less when it overflows
// (tags and summaries, product-spec section 2).
import { Box, Button } from '@chakra-ui/react';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { TAGS_COLLAPSED_HEIGHT } from '../config/limits';
import { useT } from '../lib/locale-context';

export function ExpandableBox({
  children,
  collapsedHeight = TAGS_COLLAPSED_HEIGHT,
}: {
  children: ReactNode;
  collapsedHeight?: string;
}) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);

  useLayoutEffect(() => {
    const box = ref.current;
    if (box && !expanded) setOverflows(box.scrollHeight > box.clientHeight + 1);
  }, [children, expanded]);

  return (
    <Box>
      <Box ref={ref} maxH={expanded ? undefined : collapsedHeight} overflow="hidden">
        {children}
      </Box>
      {overflows ? (
        <Button
          variant="plain"
          size="xs"
          px="0"
          color="blue.700"
          aria-expanded={expanded}
          onClick={(event) => {
            event.stopPropagation();
            setExpanded((value) => !value);
          }}
        >
          {expanded ? t('browse.viewLess') : t('browse.viewMore')}
        </Button>
      ) : null}
    </Box>
  );
}
