// What a failed video tells its user: a code from the short list, never a tool's message.
import { describe, expect, it } from 'vitest';
import { deserializeError, serializeError } from '../lib/thread-calls.ts';
import { ProcessError } from '../media/run.ts';
import { StepError } from './analyse-video.ts';
import { failureCodeOf, VideoFailure } from './failure.ts';

const ffmpegFailure = (): ProcessError =>
  new ProcessError(
    'ffmpeg exited with 1: Error reinitializing filters! | Failed to inject frame into filter network',
    1,
    'Error reinitializing filters!',
  );

describe('failureCodeOf', () => {
  it('keeps the code a step gave', () => {
    expect(failureCodeOf(new VideoFailure('incomplete', 'the video file is incomplete'))).toBe(
      'incomplete',
    );
  });

  it('calls a media tool that kept failing on the file undecodable, also from the media thread', () => {
    expect(failureCodeOf(new StepError('scenes', ffmpegFailure()))).toBe('undecodable');
    // Errors cross from the media thread as plain Errors carrying the name.
    const crossed = deserializeError(serializeError(ffmpegFailure()));
    expect(failureCodeOf(new StepError('scenes', crossed))).toBe('undecodable');
  });

  it('calls anything else not finished', () => {
    expect(failureCodeOf(new StepError('describe', new Error('socket hang up')))).toBe(
      'not-finished',
    );
    expect(failureCodeOf('a string')).toBe('not-finished');
  });
});
