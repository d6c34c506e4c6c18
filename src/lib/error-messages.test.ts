import { describe, expect, it } from 'vitest';
import { describeServerError } from './error-messages';

const UNKNOWN = 'An unknown error occurred';

describe('describeServerError (section 8)', () => {
  it('shows a string detail as is', () => {
    expect(
      describeServerError({ detail: 'Current password is incorrect', status: 400 }, UNKNOWN),
    ).toBe('Current password is incorrect');
  });

  it('replaces the first word of each list message with the camel-cased field', () => {
    const error = {
      status: 422,
      detail: [
        {
          loc: ['body', 'new_password'],
          msg: 'String should have at least 8 characters',
          type: 'x',
        },
        { loc: ['body', 'confirmation_password'], msg: 'Value does not match', type: 'y' },
      ],
    };
    expect(describeServerError(error, UNKNOWN)).toBe(
      'newPassword should have at least 8 characters\nconfirmationPassword does not match',
    );
  });

  it('falls back to the unknown text', () => {
    expect(describeServerError({}, UNKNOWN)).toBe(UNKNOWN);
    expect(describeServerError({ detail: [] }, UNKNOWN)).toBe(UNKNOWN);
    expect(describeServerError({ detail: 42 }, UNKNOWN)).toBe(UNKNOWN);
    expect(describeServerError(null, UNKNOWN)).toBe(UNKNOWN);
  });
});
