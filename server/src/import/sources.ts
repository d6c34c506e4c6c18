// What `npm run admin -- import` reads: a folder walked recursively here, or every object under
// an s3://bucket/prefix (s3-source.ts, loaded only for such an address: the AWS SDK alone is about
// a quarter of a second of the command's start). Each accepted file has a key (its path below the
// root), size and date; everything else is listed as left out with the reason.
import fs from 'node:fs';
import path from 'node:path';
import { digestFile, type ContentDigest } from '../lib/content-digest.ts';
import { VIDEO_EXTENSIONS, VIDEO_MAX_BYTES } from '../../../src/config/limits.ts';

export interface SourceFile {
  /** The path below the root, with '/' (also the key sent to check-files). */
  key: string;
  size: number;
  /** The file's own creation time (folder: birthtime, else mtime; S3: LastModified). */
  date: Date;
}

export interface LeftOut {
  key: string;
  reason: string;
}

export interface Listing {
  accepted: SourceFile[];
  leftOut: LeftOut[];
  unreadable: LeftOut[];
}

/** A local file of a source file for the probe and the upload; release() removes any copy. */
export interface LocalFile {
  path: string;
  release(): Promise<void>;
  digest?: ContentDigest;
}

export interface Source {
  /** The folder or s3:// address, as shown. */
  readonly label: string;
  list(exclude: readonly RegExp[]): Promise<Listing>;
  /** The SHA-256 and size of the file, read once (nothing written). */
  digest(file: SourceFile): Promise<ContentDigest>;
  /** A local file to probe and send: the file itself, or a copy downloaded (and hashed). */
  local(file: SourceFile): Promise<LocalFile>;
}

const ACCEPTED = `${VIDEO_EXTENSIONS.slice(0, -1).join(', ')} or ${VIDEO_EXTENSIONS.at(-1)}`;

/** Why a file of this name and size is not taken, or undefined when it is. */
export function refusal(key: string, size: number): string | undefined {
  const ext = /\.([^./]+)$/.exec(key)?.[1]?.toLowerCase() ?? '';
  if (!(VIDEO_EXTENSIONS as readonly string[]).includes(ext)) return `not an ${ACCEPTED} file`;
  if (size === 0) return 'empty file';
  if (size > VIDEO_MAX_BYTES) return 'larger than 5 GB';
  return undefined;
}

/**
 * `--exclude` globs: `*` and `?` within a name, `**` across folders. A pattern without '/'
 * matches any single name on the path (a folder leaves out all below it), like .gitignore; one
 * with '/' matches the path from the root, or a folder of it.
 */
export function excludePattern(glob: string): RegExp {
  const GLOB: Record<string, string> = { '**/': '(?:.*/)?', '**': '.*', '*': '[^/]*', '?': '[^/]' };
  const trimmed = glob.replace(/^\/+|\/+$/g, '');
  const body = trimmed
    .split(/(\*\*\/?|\*|\?)/)
    .map((part) => GLOB[part] ?? part.replace(/[.+^${}()|[\]\\]/g, '\\$&'))
    .join('');
  return trimmed.includes('/')
    ? new RegExp(`^${body}(?:/.*)?$`)
    : new RegExp(`(?:^|/)${body}(?:/|$)`);
}

export const excluded = (key: string, exclude: readonly RegExp[]): boolean =>
  exclude.some((re) => re.test(key));

const reasonOf = (err: unknown): string =>
  (err as NodeJS.ErrnoException).code === 'EACCES'
    ? 'permission denied'
    : err instanceof Error
      ? err.message
      : String(err);

export class FolderSource implements Source {
  readonly label: string;

  constructor(private readonly root: string) {
    this.label = path.resolve(root);
  }

  async list(exclude: readonly RegExp[]): Promise<Listing> {
    const out: Listing = { accepted: [], leftOut: [], unreadable: [] };
    const walk = async (dir: string): Promise<void> => {
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(dir, { withFileTypes: true });
      } catch (err) {
        const key = path.relative(this.label, dir).split(path.sep).join('/') || '.';
        out.unreadable.push({ key: `${key}/`, reason: reasonOf(err) });
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        const full = path.join(dir, e.name);
        const key = path.relative(this.label, full).split(path.sep).join('/');
        if (excluded(key, exclude)) continue;
        if (e.isSymbolicLink()) {
          out.leftOut.push({ key, reason: 'symbolic link (not followed)' });
        } else if (e.isDirectory()) {
          await walk(full);
        } else if (!e.isFile()) {
          out.leftOut.push({ key, reason: 'not a regular file' });
        } else {
          try {
            const st = await fs.promises.stat(full);
            const why = refusal(key, st.size);
            if (why) {
              out.leftOut.push({ key, reason: why });
              continue;
            }
            // Opening says now whether the file can be read, not in the middle of the batch.
            await (await fs.promises.open(full, 'r')).close();
            // A copy's birthtime is the copy's: a creation after the last change is not one.
            const born = st.birthtimeMs > 0 && st.birthtimeMs <= st.mtimeMs;
            out.accepted.push({
              key,
              size: st.size,
              date: born ? st.birthtime : st.mtime,
            });
          } catch (err) {
            out.unreadable.push({ key, reason: reasonOf(err) });
          }
        }
      }
    };
    const st = await fs.promises.stat(this.label).catch((err: unknown) => {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new Error(`There is no folder at ${this.label}.`);
      }
      throw new Error(`${this.label} cannot be read: ${reasonOf(err)}.`);
    });
    if (!st.isDirectory()) throw new Error(`${this.label} is not a folder.`);
    await walk(this.label);
    return out;
  }

  private file(f: SourceFile): string {
    return path.join(this.label, ...f.key.split('/'));
  }

  digest(f: SourceFile): Promise<ContentDigest> {
    return digestFile(this.file(f));
  }

  async local(f: SourceFile): Promise<LocalFile> {
    return { path: this.file(f), release: async () => undefined };
  }
}
