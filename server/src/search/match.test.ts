import { describe, expect, it } from 'vitest';
import {
  explainHit,
  hitMatcher,
  matchedTerms,
  NO_MATCH,
  queryWords,
  scoreShares,
  videoHitText,
} from './match.ts';

const shares = { keyword: 0.5, meaning: 0.5 };

describe('matchedTerms', () => {
  it('finds the query words as the text writes them, plurals and case folded', () => {
    const q = queryWords('the fireworks over a harbour');
    expect(matchedTerms(q, 'Firework show at the HARBOUR tonight')).toEqual([
      'Firework',
      'HARBOUR',
    ]);
    // Stop words never count as matched words.
    expect(matchedTerms(q, 'The show is over')).toEqual([]);
  });

  it('finds a folded plural whose last letters differ', () => {
    expect(matchedTerms(queryWords('cities'), 'A city at night')).toEqual(['city']);
  });

  it('finds Japanese words however the dictionary cuts them', () => {
    expect(matchedTerms(queryWords('花火'), '横浜港の花火大会')).toEqual(['花火']);
    expect(matchedTerms(queryWords('花火大会'), '夏の花火大会です')).not.toEqual([]);
  });
});

describe('explainHit', () => {
  const text = {
    texts: ['Harbour fireworks festival', 'Red and gold fireworks over the water.', ''],
    people: ['Maria Lopez', 'Ken Sato'],
    objects: ['boat', 'cell phone', 'dog'],
    screenLines: ['HARBOUR FESTIVAL', 'Fireworks start at eight'],
  };

  it('names the people, objects and screen lines the query asked for', () => {
    const q = 'maria with her cell phone on a boat at eight';
    const m = explainHit(queryWords(q), q, text, shares);
    expect(m.people).toEqual(['Maria Lopez']);
    expect(m.objects).toEqual(['boat', 'cell phone']);
    expect(m.screenText).toEqual(['Fireworks start at eight']);
    expect(m.terms).toEqual([]);
  });

  it('takes a Japanese object word for the object', () => {
    const q = '犬と散歩';
    expect(explainHit(queryWords(q), q, text, shares).objects).toEqual(['dog']);
    // 車 (car) inside 自転車 (bicycle) does not name a car.
    const bike = '自転車';
    const car = { ...text, objects: ['car'] };
    expect(explainHit(queryWords(bike), bike, car, shares).objects).toEqual([]);
  });

  it('collects matched words once across the texts', () => {
    const q = 'fireworks festival';
    expect(explainHit(queryWords(q), q, text, shares).terms).toEqual(['fireworks', 'festival']);
  });
});

describe('scoreShares', () => {
  it('gives keywords all of a keyword search and none of a meaning search', () => {
    expect(scoreShares('sparse', undefined)).toEqual({ keyword: 1, meaning: 0 });
    expect(scoreShares('dense', undefined)).toEqual({ keyword: 0, meaning: 1 });
    expect(scoreShares('hybrid', 0.25)).toEqual({ keyword: 0.25, meaning: 0.75 });
  });
});

describe('hitMatcher', () => {
  const row = {
    title: 'Harbour day',
    summary: null,
    tags: [{ name: 'boats' }],
    hit_captions: 'Look at the boats\nThe lighthouse',
    hit_people: [],
    // The perceive step's record: objects per scene, screen lines per scene.
    hit_objects: [{ objects: ['boat'] }, { objects: ['boat', 'bird'] }],
    hit_screen: [[{ text: 'PORT OF CALL', size: 0.1 }], []],
  };

  it('explains a video hit from its recorded scenes', () => {
    const m = hitMatcher({ method: 'hybrid', description: 'boats at the port' })(
      videoHitText(row),
      0.8,
    );
    expect(m).toEqual({
      terms: ['boats'],
      keyword: 0.8,
      meaning: expect.closeTo(0.2, 12),
      people: [],
      objects: ['boat'],
      screenText: ['PORT OF CALL'],
    });
  });

  it('has nothing to say for "similar to this"', () => {
    expect(hitMatcher({ method: 'hybrid' })(videoHitText(row), 0.5)).toBe(NO_MATCH);
  });
});
