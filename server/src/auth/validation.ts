// Server-side checks of account fields. Field errors name the field as their first word because
// the client replaces that word with the camel-cased field name (product-spec section 8).
import { fieldError, HttpError, type DetailEntry } from '../lib/http-error.ts';
import {
  EMAIL_MAX_LENGTH,
  FULL_NAME_MAX_LENGTH,
  LANGUAGES,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from '../limits.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../src/config/limits.ts';

export type Language = (typeof LANGUAGES)[number];

// Local part of RFC 5322 "dot-atom" characters; a domain of labels with at least one dot.
const EMAIL_PATTERN =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;
const ALPHANUMERIC = /^[A-Za-z0-9]+$/;

export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email);
}

/** A trimmed, valid e-mail address or a 422 naming the field. */
export function requireEmail(value: unknown, field = 'email'): string {
  const email = typeof value === 'string' ? value.trim() : '';
  if (!email) throw fieldError(field, `${field} is required`, 'missing');
  if (!isValidEmail(email)) throw fieldError(field, `${field} is not a valid email address`);
  return email;
}

/** A non-empty string (passwords are not trimmed) or a 422 naming the field. */
export function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') {
    throw fieldError(field, `${field} is required`, 'missing');
  }
  return value;
}

/** The rule of product-spec section 5 with its exact message, or undefined when it holds. */
export function passwordRuleMessage(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `Please enter at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `Please enter no more than ${PASSWORD_MAX_LENGTH} characters`;
  if (!ALPHANUMERIC.test(password)) return 'Please enter alphanumeric characters only';
  return undefined;
}

/**
 * A new password that follows the rules. The detail is the spec's text as a string: the client
 * shows string details as they are, and these texts do not start with a field name.
 */
export function requireNewPassword(value: unknown, field: string): string {
  const password = requireString(value, field);
  const message = passwordRuleMessage(password);
  if (message) throw new HttpError(422, message);
  return password;
}

export function requireConfirmation(password: string, confirmation: unknown): void {
  if (confirmation !== undefined && confirmation !== null && confirmation !== password) {
    throw new HttpError(422, 'Passwords do not match');
  }
}

export function languageOr(value: unknown, fallback: Language): Language {
  return (LANGUAGES as readonly unknown[]).includes(value) ? (value as Language) : fallback;
}

/**
 * The interface language a request names first in Accept-Language (the app sends its own:
 * src/lib/base-query.ts), or undefined when that is neither English nor Japanese.
 */
export function headerLanguage(header: string | undefined): Language | undefined {
  const first = header?.split(',')[0]?.split(';')[0]?.trim().toLowerCase() ?? '';
  return LANGUAGES.find((code) => first === code || first.startsWith(`${code}-`));
}

/** What is wrong with a (trimmed) username, worded to follow the field name; or undefined. */
export function usernameProblem(username: string): string | undefined {
  if (!username) return 'is required';
  if (username.length < USERNAME_MIN_LENGTH || username.length > USERNAME_MAX_LENGTH)
    return `must be ${USERNAME_MIN_LENGTH} to ${USERNAME_MAX_LENGTH} characters`;
  if (!USERNAME_PATTERN.test(username))
    return 'may contain only letters, digits, dots, hyphens and underscores';
  return undefined;
}

export function fullNameProblem(fullName: string): string | undefined {
  if (!fullName) return 'is required';
  if (fullName.length > FULL_NAME_MAX_LENGTH)
    return `must be at most ${FULL_NAME_MAX_LENGTH} characters`;
  return undefined;
}

/** Full name and username of the profile; every problem at once, as a list detail. */
export function validateProfile(input: { full_name?: unknown; username?: unknown }): {
  fullName: string;
  username: string;
} {
  const fullName = typeof input.full_name === 'string' ? input.full_name.trim() : '';
  const username = typeof input.username === 'string' ? input.username.trim() : '';
  const errors: DetailEntry[] = [];
  const problems: [string, string | undefined][] = [
    ['full_name', fullNameProblem(fullName)],
    ['username', usernameProblem(username)],
  ];
  for (const [field, problem] of problems) {
    if (!problem) continue;
    const type = problem === 'is required' ? 'missing' : 'value_error';
    errors.push({ loc: ['body', field], msg: `${field} ${problem}`, type });
  }
  if (errors.length > 0) throw new HttpError(422, errors);
  return { fullName, username };
}
