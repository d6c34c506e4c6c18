// Form rules of product-spec section 5. A rule returns a message descriptor, never a string,
// so the message appears in the active language.
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../config/limits';
import type { MessageId } from './i18n';

export interface FieldError {
  id: MessageId;
  values?: Record<string, string | number>;
  /** Placeholders filled with another message (a field's name), in the active language. */
  messageValues?: Record<string, MessageId>;
}

export type Values = Record<string, string>;
export type Rule = (value: string, values: Values) => FieldError | null;

// Two patterns, both of which must match: a general address shape (HTML living standard)
// and one that demands a dotted domain with a top-level part of two or more letters.
const EMAIL_SHAPE =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const EMAIL_DOTTED_DOMAIN = /^[^\s@]+@[^\s@]+\.[a-zA-Z]{2,}$/;
const ALPHANUMERIC = /^[a-zA-Z0-9]+$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_SHAPE.test(value) && EMAIL_DOTTED_DOMAIN.test(value);
}

export const required: Rule = (value) =>
  value.trim() === '' ? { id: 'validation.required' } : null;

export const email: Rule = (value) =>
  value !== '' && !isValidEmail(value) ? { id: 'validation.email' } : null;

export const password: Rule = (value) => {
  if (value === '') return null;
  if (value.length < PASSWORD_MIN_LENGTH) {
    return { id: 'validation.minLength', values: { length: PASSWORD_MIN_LENGTH } };
  }
  if (value.length > PASSWORD_MAX_LENGTH) {
    return { id: 'validation.maxLength', values: { length: PASSWORD_MAX_LENGTH } };
  }
  return ALPHANUMERIC.test(value) ? null : { id: 'validation.alphanumeric' };
};

/** The value must equal another field (password confirmation). */
export function matches(otherField: string): Rule {
  return (value, values) =>
    value !== '' && value !== values[otherField] ? { id: 'validation.passwordMismatch' } : null;
}

/** Any pattern without a message of its own: "{field} is not valid.", the field named by `field`. */
export function pattern(regex: RegExp, field: MessageId): Rule {
  return (value) =>
    value !== '' && !regex.test(value)
      ? { id: 'validation.default', messageValues: { field } }
      : null;
}

/** The text of an error through a message lookup (react-intl's, or a test's). */
export function fieldErrorText(
  error: FieldError,
  t: (id: MessageId, values?: Record<string, string | number>) => string,
): string {
  const named = Object.entries(error.messageValues ?? {}).map(([key, id]) => [key, t(id)]);
  return t(error.id, { ...error.values, ...Object.fromEntries(named) });
}

export const emailRules: Rule[] = [required, email];
export const passwordRules: Rule[] = [required, password];

export function firstError(rules: Rule[], value: string, values: Values): FieldError | null {
  for (const rule of rules) {
    const error = rule(value, values);
    if (error) return error;
  }
  return null;
}
