// The box every form control draws (text fields, text areas, selects, the code boxes), as Chakra
// style props spread into `chakra('input', { base: ... })`: no Field/Select recipe is registered
// in the shared theme, which the size-budgeted first screens also load.
export const CONTROL_BOX = {
  borderWidth: '1px',
  borderColor: 'gray.400',
  borderRadius: 'l2',
  bg: 'white',
  _focusVisible: { outline: '2px solid', outlineColor: 'blue.600', outlineOffset: '0' },
  _invalid: { borderColor: 'red.600' },
} as const;

/** A full-width control of a form: CONTROL_BOX with its padding. */
export const FIELD_BOX = { display: 'block', w: 'full', px: '3', ...CONTROL_BOX } as const;
