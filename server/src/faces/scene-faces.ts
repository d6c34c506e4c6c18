// The faces of a video, stored: each people image's descriptor, and each distinct face of each
// scene with its descriptor, the frame and box it was seen best on, and a small JPEG crop kept
// beside the scene's frames; then the team's people are given the new faces (people/assign.ts).
// Used by the analysis (pipeline/perceive-step.ts) and by the recompute job (recompute.ts), so
// both store faces the one way.
import type { AppContext } from '../context.ts';
import { groupFaces, scenePeople } from '../perception/face-match.ts';
import type { PerceivedScene } from '../perception/perceive-scenes.ts';
import { decodePicture } from '../perception/picture.ts';
import { faceCrops, perceiveImage } from '../perception/thread.ts';
import { assignVideoFaces } from '../people/assign.ts';
import { outputKey } from '../pipeline/step-context.ts';
import {
  personImagesOf,
  replaceSceneFaces,
  sceneFaceNames,
  setPersonFace,
  teamPeopleFaces,
  type SceneFaceRow,
} from '../repositories/faces.ts';

export interface FaceWork {
  ctx: AppContext;
  ffmpeg: string;
  videoId: string;
  signal: AbortSignal;
  /** A local file of the storage key. */
  localFile(key: string): Promise<string>;
}

/** Who is in each scene once its faces are stored and assigned. */
export interface SceneWho {
  /** Names of the people recognised, best match first. */
  people: string[];
  /** Faces seen that match no one (the most seen together on one frame). */
  unnamed: number;
}

/**
 * Describes the one face of each people image: those not looked at yet, or with `again`, every
 * one (the recompute job: their old FaceRes embedding is replaced).
 */
export async function describePeopleImages(w: FaceWork, again = false): Promise<void> {
  const log = w.ctx.log.child({ component: 'analysis' });
  for (const person of await personImagesOf(w.ctx.db, w.videoId)) {
    if (person.faces_found !== null && !again) continue;
    let faces: number[][] = [];
    try {
      const image = await decodePicture(w.ffmpeg, await w.localFile(person.image_key));
      const seen = await perceiveImage(image, { faces: true, objects: false });
      faces = seen.faces.map((f) => f.descriptor);
    } catch (err) {
      w.signal.throwIfAborted();
      // An image ffmpeg cannot read (an SVG drawing, say) shows no face we can use.
      log.info({ videoId: w.videoId, position: person.position, err }, 'people image not read');
    }
    const one = faces.length === 1 && faces[0]!.length > 0 ? faces[0]! : null;
    await setPersonFace(w.ctx.db, w.videoId, person.position, faces.length, one);
  }
}

const cropName = (n: number): string => `face-${String(n + 1).padStart(2, '0')}.jpg`;

/**
 * Stores the distinct faces of each scene (replacing any stored before) with their crops, has the
 * team's people assigned to them, and says who is in each scene.
 */
export async function storeSceneFaces(
  w: FaceWork,
  scenes: readonly { idx: number; framePaths: readonly string[] }[],
  perceived: readonly PerceivedScene[],
): Promise<SceneWho[]> {
  const people = await teamPeopleFaces(w.ctx.db, w.videoId);
  const rows: SceneFaceRow[] = [];
  const who: SceneWho[] = [];
  for (const [i, scene] of perceived.entries()) {
    const { idx, framePaths } = scenes[i]!;
    const frames = scene.faces.map((faces, k) =>
      faces.map((f) => ({ ...f, frame: scene.faceFrames[k]! })),
    );
    const grouped = groupFaces(frames, people);
    // Each frame with a face is decoded once, in the models' thread, for all its crops.
    const crops = new Map<number, Buffer[]>();
    for (const frame of new Set(grouped.map((g) => g.face.frame))) {
      w.signal.throwIfAborted();
      const boxes = grouped.filter((g) => g.face.frame === frame).map((g) => [...g.face.box]);
      crops.set(frame, await faceCrops(framePaths[frame]!, boxes));
    }
    for (const [n, { face, match }] of grouped.entries()) {
      const crop = crops.get(face.frame)!.shift()!;
      const cropKey = outputKey(w.videoId, 'scenes', String(idx), cropName(n));
      await w.ctx.storage.put(cropKey, crop, 'image/jpeg');
      rows.push({
        scene_idx: idx,
        face_idx: n,
        descriptor: face.descriptor,
        frame_idx: face.frame,
        box: face.box,
        crop_key: cropKey,
        person_name: match?.name ?? null,
      });
    }
    const seen = scenePeople({ frames: scene.faces }, people);
    who.push({ people: seen.named.map((m) => m.name), unnamed: seen.unnamed });
  }
  const old = await w.ctx.db.tx((q) => replaceSceneFaces(q, w.videoId, rows));
  const kept = new Set(rows.map((r) => r.crop_key));
  for (const key of old.filter((k) => !kept.has(k))) await w.ctx.storage.delete(key);
  await assignVideoFaces(w.ctx.db, w.videoId);
  // The assignment may name faces the people images did not (a person named on the People
  // page) or leave a match to a group: the scenes say what the stored faces now say.
  const names = await sceneFaceNames(w.ctx.db, w.videoId);
  return who.map((seen, i) => {
    const now = names.get(scenes[i]!.idx) ?? { named: [], unnamed: 0 };
    return {
      people: [
        ...seen.people.filter((p) => now.named.includes(p)),
        ...now.named.filter((p) => !seen.people.includes(p)),
      ],
      unnamed: Math.min(seen.unnamed, now.unnamed),
    };
  });
}
