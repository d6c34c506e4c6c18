// The upload dialog's rules (product-spec section 5): which files are taken, the size limits and
// when Next and Upload may be pressed. Pure, so the rules are tested without rendering.
import {
  IMAGE_EXTENSIONS,
  IMAGE_MAX_BYTES,
  VIDEO_EXTENSIONS,
  VIDEO_MAX_BYTES,
} from '../../config/limits';
import type { MessageId } from '../../lib/i18n';
import type { BatchDetails } from '../../upload-queue/batch-client';
import type { EnqueueInput, PersonInput } from '../../upload-queue/job-factory';
import type { CreateVideoPayload } from '../../upload-queue/job-types';

interface NamedFile {
  name: string;
  size: number;
}

export function fileExtension(name: string): string {
  return /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
}

export function isVideoFile(file: Pick<NamedFile, 'name'>): boolean {
  return (VIDEO_EXTENSIONS as readonly string[]).includes(fileExtension(file.name));
}

export function videoFileError(file: NamedFile): MessageId | undefined {
  return file.size > VIDEO_MAX_BYTES ? 'upload.videoTooLarge' : undefined;
}

export function imageFileError(file: NamedFile): MessageId | undefined {
  if (!(IMAGE_EXTENSIONS as readonly string[]).includes(fileExtension(file.name)))
    return 'upload.imageType';
  return file.size > IMAGE_MAX_BYTES ? 'upload.imageTooLarge' : undefined;
}

export interface PersonDraft {
  /** Stable React key. */
  key: string;
  name: string;
  image: File | null;
  imageError?: MessageId | undefined;
}

/** An untouched entry (no name, no image) is not a person: it is neither sent nor blocking. */
export function isBlankPerson(person: PersonDraft): boolean {
  return person.name.trim() === '' && person.image === null;
}

/** Has one of name and image but not both ("Please add both the name and the image..."). */
export function isIncompletePerson(person: PersonDraft): boolean {
  return !isBlankPerson(person) && (person.name.trim() === '' || person.image === null);
}

export interface DetailsDraft {
  about: string;
  people: PersonDraft[];
  makeTrailer: boolean;
  trailerInstruction: string;
}

export function canGoNext(details: DetailsDraft): boolean {
  if (details.makeTrailer && details.trailerInstruction.trim() === '') return false;
  return details.people.every((p) => !isIncompletePerson(p) && !p.imageError);
}

export interface FileDraft {
  file: File | null;
  fileError?: MessageId | undefined;
  /** Seconds, once the probe has read it. */
  durationSeconds?: number | undefined;
  videoDate?: string | undefined;
  outputLanguage: string;
}

export function canUpload(draft: FileDraft, uploading: boolean): boolean {
  return (
    !uploading &&
    draft.file !== null &&
    !draft.fileError &&
    draft.durationSeconds !== undefined &&
    draft.videoDate !== undefined &&
    draft.outputLanguage !== ''
  );
}

export const emptyPerson = (): PersonDraft => ({
  key: crypto.randomUUID(),
  name: '',
  image: null,
});

export const initialDetails = (): DetailsDraft => ({
  about: '',
  people: [emptyPerson()],
  makeTrailer: false,
  trailerInstruction: '',
});

/** What step 1 gives every file queued with it (one, or a whole batch). */
export function sharedDetails(details: DetailsDraft, outputLanguage: string): BatchDetails {
  const shared: BatchDetails = {
    output_language: outputLanguage,
    about_this_video: details.about,
  };
  if (details.makeTrailer) shared.trailer_instruction = details.trailerInstruction;
  return shared;
}

/** The people entries with both a name and an image (blank ones are not people). */
export function peopleOf(details: DetailsDraft): PersonInput[] {
  return details.people
    .filter((p): p is PersonDraft & { image: File } => !isBlankPerson(p) && p.image !== null)
    .map((p) => ({ name: p.name.trim(), image: p.image }));
}

/** What the queue stores: the create payload of product-spec section 3 and the people. */
export function toEnqueueInput(
  details: DetailsDraft,
  file: File,
  probe: { durationSeconds: number; videoDate: string },
  outputLanguage: string,
  fileHandle?: FileSystemFileHandle,
  duplicate: { contentSha256?: string | undefined; allowDuplicate?: boolean } = {},
): EnqueueInput {
  const payload: CreateVideoPayload = {
    filename: file.name,
    video_length: probe.durationSeconds,
    video_date: probe.videoDate,
    ...sharedDetails(details, outputLanguage),
    file_size: file.size,
  };
  if (duplicate.contentSha256) payload.content_sha256 = duplicate.contentSha256;
  if (duplicate.allowDuplicate) payload.allow_duplicate = true;
  return { payload, people: peopleOf(details), file, ...(fileHandle ? { fileHandle } : {}) };
}
