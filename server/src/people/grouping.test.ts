import { describe, expect, it } from 'vitest';
import {
  assignFace,
  clusterFaces,
  joinTarget,
  required,
  shouldJoin,
  type Neighbour,
  type PersonInfo,
} from './grouping.ts';

/** A 128-number descriptor: zero but for the given coordinates. */
function at(...coords: [index: number, value: number][]): number[] {
  const v = new Array<number>(128).fill(0);
  for (const [i, x] of coords) v[i] = x;
  return v;
}

describe('clusterFaces', () => {
  it('groups faces within the distance and keeps strangers apart', () => {
    const faces = [
      { id: 1, descriptor: at([0, 1]) },
      { id: 2, descriptor: at([0, 1], [1, 0.2]) },
      { id: 3, descriptor: at([5, 1]) },
      { id: 4, descriptor: at([0, 1], [2, 0.2]) },
      { id: 5, descriptor: at([5, 1], [3, 0.1]) },
      { id: 6, descriptor: at([9, 1]) },
    ];
    const groups = clusterFaces(faces).map((g) => g.map((f) => f.id));
    expect(groups).toEqual([[1, 2, 4], [3, 5], [6]]);
  });

  it('does not chain two people together through a face between them', () => {
    // A at 0, B at 0.9 on one axis, a bridge face at 0.45: each pair with the bridge is within
    // 0.5 (single linkage would make one group), but A and B are 0.9 apart.
    const a = [0, 0.02, 0.04].map((x, i) => ({ id: `a${i}`, descriptor: at([0, x]) }));
    const b = [0.9, 0.88, 0.86].map((x, i) => ({ id: `b${i}`, descriptor: at([0, x]) }));
    const bridge = { id: 'bridge', descriptor: at([0, 0.45]) };
    const groups = clusterFaces([...a, bridge, ...b]).map((g) => g.map((f) => f.id));
    expect(groups.find((g) => g.includes('a0'))).not.toContain('b0');
    expect(groups.find((g) => g.includes('a0'))).toEqual(
      expect.arrayContaining(['a0', 'a1', 'a2']),
    );
    expect(groups.find((g) => g.includes('b0'))).toEqual(
      expect.arrayContaining(['b0', 'b1', 'b2']),
    );
  });

  it('honours a stricter distance', () => {
    const faces = [
      { id: 1, descriptor: at([0, 1]) },
      { id: 2, descriptor: at([0, 1], [1, 0.3]) },
    ];
    expect(clusterFaces(faces, { distance: 0.2 })).toHaveLength(2);
    expect(clusterFaces(faces, { distance: 0.5 })).toHaveLength(1);
    expect(clusterFaces([])).toEqual([]);
  });
});

describe('assignFace', () => {
  const people = new Map<string, PersonInfo>([
    ['ann', { named: true, size: 10 }],
    ['bob', { named: true, size: 10 }],
    ['group', { named: false, size: 1 }],
    ['big', { named: false, size: 40 }],
  ]);
  const near = (person: string, ...distances: number[]): Neighbour[] =>
    distances.map((distance) => ({ person, distance }));

  it('joins the person with enough close faces, closest on average', () => {
    const r = assignFace(
      [...near('ann', 0.3, 0.35, 0.4), ...near('big', 0.2, 0.45, 0.49)],
      people,
      new Set(),
    );
    expect(r).toMatchObject({ kind: 'person', person: 'ann', alsoClose: ['big'] });
  });

  it('needs a quorum of close faces for a big group, one for a single face', () => {
    expect(assignFace(near('big', 0.1, 0.2), people, new Set()).kind).toBe('none');
    expect(assignFace(near('big', 0.1, 0.2, 0.3), people, new Set())).toMatchObject({
      person: 'big',
    });
    expect(assignFace(near('group', 0.4), people, new Set())).toMatchObject({ person: 'group' });
    expect(required(1)).toBe(1);
    expect(required(2)).toBe(1);
    expect(required(4)).toBe(2);
    expect(required(1000)).toBe(3);
  });

  it('ignores faces beyond the distance', () => {
    expect(assignFace(near('group', 0.51), people, new Set())).toEqual({
      kind: 'none',
      alsoClose: [],
    });
  });

  it('never assigns a face to a person it was rejected for', () => {
    const r = assignFace(
      [...near('ann', 0.1, 0.1, 0.1), ...near('big', 0.4, 0.4, 0.4)],
      people,
      new Set(['ann']),
    );
    expect(r).toMatchObject({ kind: 'person', person: 'big', alsoClose: [] });
    expect(assignFace(near('ann', 0.1, 0.1, 0.1), people, new Set(['ann'])).kind).toBe('none');
  });

  it('names nobody when two named people are about as close', () => {
    const r = assignFace(
      [...near('ann', 0.3, 0.3, 0.3), ...near('bob', 0.32, 0.32, 0.32)],
      people,
      new Set(),
    );
    expect(r.kind).toBe('none');
    const clear = assignFace(
      [...near('ann', 0.2, 0.2, 0.2), ...near('bob', 0.4, 0.4, 0.4)],
      people,
      new Set(),
    );
    expect(clear).toMatchObject({ kind: 'person', person: 'ann' });
  });

  it('skips faces of people it does not know (another team, deleted)', () => {
    expect(assignFace(near('stranger', 0.1), people, new Set()).kind).toBe('none');
  });
});

describe('shouldJoin', () => {
  const one = { named: false, descriptors: [at([0, 1]), at([0, 1], [1, 0.1])] };
  const same = { named: false, descriptors: [at([0, 1], [2, 0.2])] };
  const other = { named: false, descriptors: [at([7, 1])] };

  it('joins close groups and not far ones', () => {
    expect(shouldJoin(one, same, false)).toBe(true);
    expect(shouldJoin(one, other, false)).toBe(false);
  });

  it('never joins two named people nor across a rejection', () => {
    expect(shouldJoin({ ...one, named: true }, { ...same, named: true }, false)).toBe(false);
    expect(shouldJoin({ ...one, named: true }, same, false)).toBe(true);
    expect(shouldJoin(one, same, true)).toBe(false);
  });

  it('keeps the named group, else the bigger one', () => {
    const named = { named: true, size: 1 };
    const big = { named: false, size: 9 };
    const small = { named: false, size: 2 };
    expect(joinTarget(big, named)[0]).toBe(named);
    expect(joinTarget(small, big)).toEqual([big, small]);
  });
});
