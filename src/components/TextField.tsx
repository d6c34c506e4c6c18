// A labelled input with its validation message; the label is the accessible name.
// Plain elements with a CSS module: the first screens (Login) load without Chakra.
import { useEffect, useId, useRef } from 'react';
import type { FieldBinding } from '../lib/use-form';
import { fieldErrorText, type FieldError } from '../lib/validation';
import { useT } from '../lib/locale-context';
import styles from './TextField.module.css';

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
  const input = useRef<HTMLInputElement>(null);
  const { value, onChange } = binding;
  // On a prerendered page (issue 8) the visitor may type before the app takes over: React keeps
  // that text in the input without telling the form, so the form takes it once mounted.
  useEffect(() => {
    const typed = input.current?.value;
    if (typed !== undefined && typed !== value) onChange({ target: { value: typed } });
  }, []); // once, on mount: later changes arrive through onChange
  return (
    <div>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <input
        ref={input}
        className={styles.input}
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
      {helperText && !error ? (
        <p className={styles.hint} id={hintId}>
          {helperText}
        </p>
      ) : null}
      {error ? (
        <p className={styles.error} id={errorId} role="alert">
          {fieldErrorText(error, t)}
        </p>
      ) : null}
    </div>
  );
}
