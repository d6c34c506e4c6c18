// Dates as section 9 shows them, in the viewer's local time (here Tokyo, UTC+9, so a UTC reading
// would show another day and hour).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatDate, formatDateTime, formatLength } from './dates';

beforeAll(() => {
  vi.stubEnv('TZ', 'Asia/Tokyo'); // Node applies a changed TZ at once
});
afterAll(() => {
  vi.unstubAllEnvs();
});

describe('dates (section 9)', () => {
  it('shows date and time as YYYY/MM/DD HH:mm in local time', () => {
    expect(formatDateTime('2024-05-06T23:30:45Z')).toBe('2024/05/07 08:30');
    expect(formatDateTime('2024-12-31T15:00:00.000Z')).toBe('2025/01/01 00:00');
  });

  it('shows the original date of a video as a date only, in local time', () => {
    expect(formatDate('2024-05-06T23:30:45Z')).toBe('2024/05/07');
    expect(formatDate('2024-12-24')).toBe('2024/12/24');
  });

  it('leaves missing or invalid dates empty', () => {
    for (const value of [null, undefined, '', 'not a date']) {
      expect(formatDateTime(value)).toBe('');
      expect(formatDate(value)).toBe('');
    }
  });

  it('shows a length as HH:mm:ss', () => {
    expect(formatLength(0)).toBe('00:00:00');
    expect(formatLength(3725.9)).toBe('01:02:05');
    expect(formatLength(90_000)).toBe('25:00:00');
    expect(formatLength(-1)).toBe('');
    expect(formatLength(null)).toBe('');
  });
});
