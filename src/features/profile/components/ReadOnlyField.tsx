// A labelled value the user can read and copy but not change (the team of the account).
import { chakra } from '@chakra-ui/react';
import { useId } from 'react';

const Label = chakra('label', {
  base: { display: 'block', fontWeight: 'medium', fontSize: 'sm', mb: '1.5', color: 'gray.900' },
});

const Value = chakra('input', {
  base: {
    display: 'block',
    w: 'full',
    h: '10',
    px: '3',
    borderWidth: '1px',
    borderColor: 'gray.200',
    borderRadius: 'l2',
    bg: 'gray.100',
    color: 'gray.800',
    fontSize: 'md',
  },
});

export function ReadOnlyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Value id={id} value={value} readOnly aria-readonly="true" />
    </div>
  );
}
