// The pipeline's first step (issue 42): the server's own SHA-256 of the original file, and no
// analysis of bytes the team has already. The hash is usually known by now (taken while the
// local form was received); otherwise it is taken during the read the probe needs anyway (S3's
// download), or by one read of a local file that arrived in parts (docs/decisions/content-hash.md).
import {
  originalOf,
  recordContentHash,
  setDuplicateOf,
  videoDigest,
} from '../repositories/content-hash.ts';
import { VideoFailure } from './failure.ts';
import type { Step } from './step-context.ts';

export const FILE_MISSING_REASON = 'the uploaded file is missing';

export const contentHashStep: Step<{ sha256: string }> = {
  name: 'content-hash',
  async run(s) {
    const { db, storage } = s.ctx;
    const key = s.video.source_key;
    if (!key || !(await storage.stat(key)))
      throw new VideoFailure('file-missing', FILE_MISSING_REASON);
    let known = await videoDigest(db, s.video.id);
    if (!known) throw new VideoFailure('file-missing', FILE_MISSING_REASON);
    if (!known.content_hashed_at || !known.content_sha256) {
      const { sha256, size } = await s.localFileDigest(key);
      await recordContentHash(db, s.video.id, sha256, size);
      known = { ...known, content_sha256: sha256 };
    }
    // Run again on a retry, so a video whose original was deleted meanwhile is analysed then.
    const original = known.allow_duplicate ? undefined : await originalOf(db, s.video.id);
    await setDuplicateOf(db, s.video.id, original?.id ?? null);
    if (original) {
      throw new VideoFailure(
        'duplicate',
        `the same bytes as video ${original.id} (${original.title || original.filename})`,
      );
    }
    return { sha256: known.content_sha256! };
  },
};
