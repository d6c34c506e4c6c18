// Why a video failed, in the user's words: the server sends a code (server/src/pipeline/failure.ts),
// never a tool's message; a code this app does not know reads as "could not be finished".
import type { MessageId } from './i18n';

const FAILURE_MESSAGES: Readonly<Record<string, MessageId>> = {
  'not-a-video': 'videos.failure.notAVideo',
  'too-long': 'videos.failure.tooLong',
  'too-large': 'videos.failure.tooLarge',
  'file-missing': 'videos.failure.fileMissing',
  incomplete: 'videos.failure.incomplete',
  undecodable: 'videos.failure.undecodable',
  'not-finished': 'videos.failure.notFinished',
  duplicate: 'videos.failure.duplicate',
};

export function failureMessageId(code: string | null | undefined): MessageId {
  return (code && FAILURE_MESSAGES[code]) || 'videos.failure.notFinished';
}
