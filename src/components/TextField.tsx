// A labelled input with its validation message; the label is the accessible name.
// Plain elements styled through Chakra: its Field and Input bring Ark's field machinery, which
// the first screen (Login) cannot afford within its size budget.
import { chakra } from '@chakra-ui/react';
import { useId } from 'react';
import type { FieldBinding } from '../lib/use-form';
import type { FieldError } from '../lib/validation';
import { useT } from '../lib/locale-context';

const Label = chakra('label', {
  base: { display: 'block', fontWeight: 'medium', fontSize: 'sm', mb: '1.5', color: 'gray.900' },
});

const Input = chakra('input', {
  base: {
    display: 'block',
    w: 'full',
    h: '10',
    px: '3',
    borderWidth: '1px',
    borderColor: 'gray.400',
    borderRadius: 'l2',
    bg: 'white',
    color: 'gray.900',
    fontSize: 'md',
    _focusVisible: { outline: '2px solid', outlineColor: 'blue.600', outlineOffset: '0' },
    _invalid: { borderColor: 'red.600', _focusVisible: { outlineColor: 'red.600' } },
  },
});

const Hint = chakra('p', { base: { fontSize: 'sm', mt: '1.5', color: 'gray.700' } });
const ErrorText = chakra('p', { base: { fontSize: 'sm', mt: '1.5', color: 'red.700' } });

interface TextFieldProps {
  label: string;
  binding: FieldBinding;
  error?: FieldError | undefined;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  helperText?: string;
  maxLength?: number;
}

export function TextField({
  label,
  binding,
  error,
  type = 'text',
  autoComplete,
  helperText,
  maxLength,
}: TextFieldProps) {
  const t = useT();
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = error ? errorId : helperText ? hintId : undefined;
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type={type}
        autoComplete={autoComplete}
        maxLength={maxLength}
        name={binding.name}
        value={binding.value}
        onChange={binding.onChange}
        onBlur={binding.onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {helperText && !error ? <Hint id={hintId}>{helperText}</Hint> : null}
      {error ? (
        <ErrorText id={errorId} role="alert">
          {t(error.id, error.values)}
        </ErrorText>
      ) : null}
    </div>
  );
}
