// The analysis of one video, in order. Each finished step is recorded with its result, so a
// retry or a recovered crash resumes at the first unfinished one.
import { contentHashStep } from './content-hash-step.ts';
import { captionsStep, clipsStep, probeStep, renditionStep } from './media-steps.ts';
import { perceiveStep } from './perceive-step.ts';
import { scenesStep } from './scenes-step.ts';
import type { Step } from './step-context.ts';
import { indexStep, understandStep } from './understand-steps.ts';

export const PIPELINE: readonly Step[] = [
  // The server's hash of the file, and no analysis of bytes the team has already (issue 42).
  contentHashStep,
  probeStep,
  renditionStep,
  scenesStep,
  clipsStep,
  captionsStep,
  // Faces and objects, with either provider: the understand step words them.
  perceiveStep,
  understandStep,
  // Built last from the stored results; the video is marked completed right after it.
  indexStep,
];
