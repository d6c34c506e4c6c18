import { describe, expect, it } from 'vitest';
import { clock, lastStartAt, readSeconds, toSeconds } from './timecode';

describe('timecode', () => {
  it('reads the analysis times as seconds', () => {
    expect(toSeconds('00:01:02.500')).toBe(62.5);
    expect(toSeconds('01:00:00.000')).toBe(3600);
    expect(toSeconds('nonsense')).toBe(0);
  });

  it('shows seconds as a clock, with hours only when there are some', () => {
    expect(clock(62.5)).toBe('1:02');
    expect(clock(3723)).toBe('1:02:03');
    expect(clock(-1)).toBe('0:00');
  });

  it('finds the scene or cue playing at a time', () => {
    const starts = [0, 2, 4, 10];
    expect(lastStartAt(starts, 0)).toBe(0);
    expect(lastStartAt(starts, 3.9)).toBe(1);
    expect(lastStartAt(starts, 99)).toBe(3);
    expect(lastStartAt([5], 1)).toBe(-1);
  });

  it('accepts only plain seconds in a link', () => {
    expect(readSeconds('12')).toBe(12);
    expect(readSeconds('12.5')).toBe(12.5);
    expect(readSeconds('-3')).toBeNull();
    expect(readSeconds('1e9')).toBeNull();
    expect(readSeconds(null)).toBeNull();
  });
});
