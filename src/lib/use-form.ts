// A small form state hook: validates on change and on blur, and says when submit is disabled
// (product-spec section 4: empty, invalid or submitting).
import { useCallback, useMemo, useState } from 'react';
import { firstError, type FieldError, type Rule, type Values } from './validation';

export interface FormOptions<F extends string> {
  initialValues: Record<F, string>;
  rules: Partial<Record<F, Rule[]>>;
}

export interface FieldBinding {
  name: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  onBlur: () => void;
}

export function useForm<F extends string>({ initialValues, rules }: FormOptions<F>) {
  const [values, setValues] = useState<Record<F, string>>(initialValues);
  const [touched, setTouched] = useState<Partial<Record<F, boolean>>>({});

  const allErrors = useMemo(() => {
    const out: Partial<Record<F, FieldError>> = {};
    for (const field of Object.keys(values) as F[]) {
      const error = firstError(rules[field] ?? [], values[field], values as Values);
      if (error) out[field] = error;
    }
    return out;
  }, [values, rules]);

  /** Errors are shown once a field has been changed or left. */
  const errors = useMemo(() => {
    const out: Partial<Record<F, FieldError>> = {};
    for (const field of Object.keys(allErrors) as F[]) {
      if (touched[field]) out[field] = allErrors[field];
    }
    return out;
  }, [allErrors, touched]);

  const setValue = useCallback((field: F, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setTouched((current) => ({ ...current, [field]: true }));
  }, []);

  const touch = useCallback((field: F) => {
    setTouched((current) => ({ ...current, [field]: true }));
  }, []);

  const reset = useCallback(() => {
    setValues(initialValues);
    setTouched({});
  }, [initialValues]);

  const bind = (field: F): FieldBinding => ({
    name: field,
    value: values[field],
    onChange: (event) => setValue(field, event.target.value),
    onBlur: () => touch(field),
  });

  const isEmpty = (Object.keys(values) as F[]).some(
    (field) => (rules[field]?.length ?? 0) > 0 && values[field] === '',
  );
  const hasErrors = Object.keys(allErrors).length > 0;

  return {
    values,
    errors,
    bind,
    setValue,
    reset,
    isEmpty,
    hasErrors,
    canSubmit: !isEmpty && !hasErrors,
  };
}
