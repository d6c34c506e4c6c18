import { describe, expect, it } from 'vitest';
import en from '../../lang/en.json';
import ja from '../../lang/ja.json';
import {
  email,
  emailRules,
  firstError,
  isValidEmail,
  matches,
  password,
  passwordRules,
  pattern,
  required,
  fieldErrorText,
  type FieldError,
} from './validation';

type Lookup = Parameters<typeof fieldErrorText>[1];

/** A message lookup over one language's file, filling {placeholders}. */
function lookupIn(messages: Record<string, string>): Lookup {
  return (id, values = {}) => {
    let message = messages[id] ?? id;
    for (const [key, value] of Object.entries(values)) {
      message = message.replace(`{${key}}`, String(value));
    }
    return message;
  };
}

/** The English text a rule produces, as the user reads it. */
function text(error: FieldError | null): string | null {
  return error ? fieldErrorText(error, lookupIn(en)) : null;
}

describe('section 5 rules', () => {
  it('required', () => {
    expect(text(required('', {}))).toBe('This field is required');
    expect(text(required('   ', {}))).toBe('This field is required');
    expect(required('x', {})).toBeNull();
  });

  it('email needs both patterns', () => {
    expect(isValidEmail('user@example.com')).toBe(true);
    expect(isValidEmail('first.last+tag@sub.example.co.jp')).toBe(true);
    expect(isValidEmail('user@localhost')).toBe(false); // shape ok, no dotted domain
    expect(isValidEmail('user@exa mple.com')).toBe(false);
    expect(isValidEmail('user@@example.com')).toBe(false);
    expect(isValidEmail('user@-example.com')).toBe(false); // dotted ok, shape not
    expect(text(email('nope', {}))).toBe('Please enter a valid email address');
    expect(text(firstError(emailRules, '', {}))).toBe('This field is required');
  });

  it('password length 8 to 20, alphanumeric', () => {
    expect(text(password('abc1234', {}))).toBe('Please enter at least 8 characters');
    expect(text(password('a'.repeat(21), {}))).toBe('Please enter no more than 20 characters');
    expect(text(password('abcd-1234', {}))).toBe('Please enter alphanumeric characters only');
    expect(password('abcd1234', {})).toBeNull();
    expect(password('A'.repeat(20), {})).toBeNull();
    expect(text(firstError(passwordRules, '', {}))).toBe('This field is required');
  });

  it('confirmation must match', () => {
    const rule = matches('next');
    expect(text(rule('abcd1234', { next: 'abcd12345' }))).toBe('Passwords do not match');
    expect(rule('abcd1234', { next: 'abcd1234' })).toBeNull();
  });

  it('default message names the field in the active language', () => {
    const error = pattern(/^\d+$/, 'profile.account.username')('x', {});
    expect(text(error)).toBe('Username is not valid.');
    expect(fieldErrorText(error!, lookupIn(ja))).toBe('ユーザー名が正しくありません。');
  });
});
