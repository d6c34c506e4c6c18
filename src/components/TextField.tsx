// A labelled input with its validation message; the label is the accessible name.
import { Field, Input } from '@chakra-ui/react';
import type { FieldBinding } from '../lib/use-form';
import type { FieldError } from '../lib/validation';
import { useT } from '../lib/locale-context';

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
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>{label}</Field.Label>
      <Input
        type={type}
        autoComplete={autoComplete}
        maxLength={maxLength}
        name={binding.name}
        value={binding.value}
        onChange={binding.onChange}
        onBlur={binding.onBlur}
      />
      {helperText && !error ? <Field.HelperText>{helperText}</Field.HelperText> : null}
      {error ? <Field.ErrorText>{t(error.id, error.values)}</Field.ErrorText> : null}
    </Field.Root>
  );
}
