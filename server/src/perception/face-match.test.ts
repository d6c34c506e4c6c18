// The matching rules on descriptors: smallest Euclidean distance at or under the threshold, no
// name between two look-alikes, faces of several frames grouped into one.
import { describe, expect, it } from 'vitest';
import {
  FACE_SAME_DISTANCE,
  faceDistance,
  groupFaces,
  MARGIN,
  matchFace,
  scenePeople,
} from './face-match.ts';

/** A 128-number descriptor at `d` from the origin along axis `axis` (and `off` along the next). */
const at = (axis: number, d: number, off = 0): number[] => {
  const v = new Array<number>(128).fill(0);
  v[axis] = d;
  v[(axis + 1) % 128] = off;
  return v;
};

describe('faceDistance', () => {
  it('is the Euclidean distance, and never compares vectors of different models', () => {
    expect(faceDistance(at(0, 3), at(0, 0, 4))).toBeCloseTo(5);
    expect(faceDistance(at(0, 1), at(0, 1))).toBe(0);
    // An old 1024-number FaceRes vector never meets a 128-number one.
    expect(faceDistance(new Array(1024).fill(0), at(0, 0))).toBe(Infinity);
    expect(faceDistance([], [])).toBe(Infinity);
  });
});

describe('matchFace', () => {
  const ann = { name: 'Ann', descriptor: at(0, 1) };
  const bob = { name: 'Bob', descriptor: at(5, 1) };

  it('names the closest person at or under the threshold, and nobody beyond it', () => {
    const probe = at(0, 1, 0.3);
    expect(matchFace(probe, [bob, ann])).toEqual({ name: 'Ann', distance: expect.closeTo(0.3) });
    expect(matchFace(at(0, 1, FACE_SAME_DISTANCE + 0.01), [ann])).toBeUndefined();
    expect(matchFace(at(0, 1, FACE_SAME_DISTANCE), [ann])?.name).toBe('Ann');
    expect(matchFace([], [ann])).toBeUndefined();
  });

  it('takes a person’s closest reference picture', () => {
    const far = { name: 'Ann', descriptor: at(0, 1, 0.45) };
    expect(matchFace(at(0, 1, 0.1), [far, ann])?.distance).toBeCloseTo(0.1);
  });

  it('names nobody when two people are within the margin of each other', () => {
    // Ann at 0.30, Cid at 0.30 + half the margin: look-alikes, no name.
    const probe = at(0, 1, 0.3);
    const cid = { name: 'Cid', descriptor: at(0, 1, 0.3 + 0.3 + MARGIN / 2) };
    expect(matchFace(probe, [ann, cid])).toBeUndefined();
    // Further than the margin: the closer one is named.
    const dan = { name: 'Dan', descriptor: at(0, 1, 0.3 + 0.3 + MARGIN * 2) };
    expect(matchFace(probe, [ann, dan])?.name).toBe('Ann');
  });
});

describe('scenePeople and groupFaces', () => {
  const people = [{ name: 'Ann', descriptor: at(0, 1) }];

  it('counts who is named and the most strangers seen together on one frame', () => {
    const who = scenePeople(
      {
        frames: [
          [{ descriptor: at(0, 1, 0.2) }, { descriptor: at(9, 1) }],
          [{ descriptor: at(9, 1) }, { descriptor: at(20, 1) }, { descriptor: at(0, 1, 0.1) }],
        ],
      },
      people,
    );
    expect(who.named).toEqual([{ name: 'Ann', distance: expect.closeTo(0.1) }]);
    expect(who.unnamed).toBe(2);
  });

  it('makes one face of the pictures of one person across frames, keeping the best picture', () => {
    const groups = groupFaces(
      [
        [
          { descriptor: at(0, 1, 0.4), score: 0.7, frame: 0 },
          { descriptor: at(9, 1), score: 0.9, frame: 0 },
        ],
        [
          { descriptor: at(0, 1, 0.05), score: 0.95, frame: 1 },
          { descriptor: [], score: 0.99, frame: 1 },
        ],
      ],
      people,
    );
    expect(groups).toHaveLength(2);
    expect(groups[0]!.face.frame).toBe(1);
    expect(groups[0]!.match).toEqual({ name: 'Ann', distance: expect.closeTo(0.05) });
    expect(groups[1]!.match).toBeUndefined();
  });

  it('keeps the picture that names the face, not a better scored one further from the person', () => {
    const groups = groupFaces(
      [
        [{ descriptor: at(0, 1, 0.45), score: 0.95, frame: 0 }],
        [{ descriptor: at(0, 1, 0.3), score: 0.7, frame: 1 }],
        [{ descriptor: at(0, 1, 0.4), score: 0.99, frame: 2 }],
      ],
      people,
    );
    expect(groups).toHaveLength(1);
    expect(groups[0]!.face.frame).toBe(1);
    expect(groups[0]!.match).toEqual({ name: 'Ann', distance: expect.closeTo(0.3) });
  });
});
