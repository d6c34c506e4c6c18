// Plain form elements styled through Chakra (no Field/Checkbox/Select/Progress recipes: each
// would be registered in the shared theme, which the size-budgeted first screens also load).
import { Box, chakra } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { FIELD_BOX } from '../../../components/control-look';

export const Label = chakra('label', {
  base: { display: 'block', fontWeight: 'medium', fontSize: 'sm', mb: '1.5', color: 'gray.900' },
});

/** The look every text field, text area and select of the upload form shares. */
const FIELD = { ...FIELD_BOX, color: 'gray.900', fontSize: 'md' } as const;

export const TextArea = chakra('textarea', {
  base: { ...FIELD, minH: '24', py: '2', resize: 'vertical' },
});

export const TextInput = chakra('input', {
  base: { ...FIELD, h: '10' },
});

export const Select = chakra('select', { base: { ...FIELD, h: '10' } });

export const Hint = chakra('p', { base: { fontSize: 'sm', mt: '1', color: 'gray.700' } });

export function ErrorText({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <chakra.p id={id} role="alert" fontSize="sm" mt="1.5" color="red.700">
      {children}
    </chakra.p>
  );
}

/** A determinate bar; `value` is 0..1. The label is its accessible name. */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const percent = Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <Box
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      h="2"
      w="full"
      bg="gray.200"
      borderRadius="full"
      overflow="hidden"
    >
      {/* Scaled, not resized, and without a transition: progress arrives a few times a second
          for minutes, and an animated width costs a layout and paint every frame meanwhile. */}
      <Box
        h="full"
        w="full"
        bg="blue.600"
        transformOrigin="left"
        style={{ transform: `scaleX(${percent / 100})` }}
      />
    </Box>
  );
}

/** Character count under a limited text area. */
export function CharCount({ count, max }: { count: number; max: number }) {
  return (
    <Hint textAlign="end" aria-live="polite">
      {count}/{max}
    </Hint>
  );
}
