// A row of the video detail page's outputs: a bold label, then what there is (a note, buttons),
// wrapping on a narrow screen. The outputs area and the plain outputs status both draw it.
import { Flex, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export function LabelledRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Flex gap="3" align="center" wrap="wrap">
      <Text fontWeight="semibold" minW="5rem">
        {label}
      </Text>
      {children}
    </Flex>
  );
}
