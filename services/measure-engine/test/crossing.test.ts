// The grid crossing test (src/geometry/crossing.ts) against the pair-by-pair test it replaced: the
// same answer, the same first pair, on random polygons (most of them cross), star-shaped simple
// ones, boundaries with vertical and horizontal edges and vertices touching other edges, and a
// zigzag that crowds every cell is reported as too intricate instead of being tested pair by pair.
import { describe, expect, it } from '@jest/globals';
import { findCrossing, segmentsCross } from '../src/geometry/crossing.ts';
import type { XY } from '../src/index.ts';

function bruteForce(v: readonly XY[]): [number, number] | null {
  const n = v.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      if (segmentsCross(v[i]!, v[(i + 1) % n]!, v[j]!, v[(j + 1) % n]!)) return [i, j];
    }
  }
  return null;
}

/** A seeded generator, so a failure replays. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const star = (n: number, next: () => number): XY[] =>
  Array.from({ length: n }, (_, k) => {
    const angle = (2 * Math.PI * k) / n;
    const radius = 50 + 40 * next();
    return [radius * Math.cos(angle), radius * Math.sin(angle)] as XY;
  });

const expectSameAsBruteForce = (v: XY[]) => {
  const expected = bruteForce(v);
  const found = findCrossing(v);
  expect(found).toMatchObject(expected ? { kind: 'crossing', edges: expected } : { kind: 'simple' });
};

describe('findCrossing', () => {
  it('finds the same first crossing as testing every pair, on random polygons', () => {
    const next = random(32);
    for (let trial = 0; trial < 300; trial++) {
      const n = 3 + Math.floor(next() * 40);
      expectSameAsBruteForce(Array.from({ length: n }, () => [next() * 100, next() * 100] as XY));
    }
  });

  it('finds none in star-shaped simple polygons, and the one made by swapping two vertices', () => {
    const next = random(7);
    for (let trial = 0; trial < 30; trial++) {
      const v = star(10 + Math.floor(next() * 150), next);
      expect(findCrossing(v)).toMatchObject({ kind: 'simple' });
      const k = 1 + Math.floor(next() * (v.length - 3));
      [v[k], v[k + 1]] = [v[k + 1]!, v[k]!];
      expectSameAsBruteForce(v);
    }
  });

  it('agrees on grid-aligned boundaries: vertical and horizontal edges, touching vertices', () => {
    const next = random(11);
    for (let trial = 0; trial < 300; trial++) {
      const n = 4 + Math.floor(next() * 30);
      expectSameAsBruteForce(
        Array.from({ length: n }, () => [Math.floor(next() * 6), Math.floor(next() * 6)] as XY),
      );
    }
    // A comb: long vertical teeth, a touching vertex on the spine.
    const comb: XY[] = [
      [0, 0],
      [10, 0],
      [10, 10],
      [8, 10],
      [8, 0],
      [6, 0],
      [6, 10],
      [0, 10],
    ];
    expectSameAsBruteForce(comb);
  });

  it('reports a zigzag that crowds every cell as too intricate, without testing every pair', () => {
    // 2,000 long, nearly parallel edges: a simple polygon, but every cell holds dozens of edges.
    const teeth = 1000;
    const v: XY[] = [];
    for (let k = 0; k < teeth; k++) {
      v.push([0, k * 2], [1000, k * 2 + 1]);
    }
    const found = findCrossing(v);
    expect(found.kind).toBe('too-intricate');
  });

  it('checks a drawn toe of 2,000 vertices with a handful of pairs per vertex, not every pair', () => {
    // A toe with seven lobes, drawn with 2,000 vertices.
    const v = Array.from({ length: 2000 }, (_, k) => {
      const angle = (2 * Math.PI * k) / 2000;
      const radius = 50 + 5 * Math.sin(7 * angle);
      return [radius * Math.cos(angle), radius * Math.sin(angle)] as XY;
    });
    const found = findCrossing(v);
    expect(found.kind).toBe('simple');
    // Every pair would be about 2 million; the grid tests a few per vertex.
    expect(found.pairChecks).toBeLessThan(10 * v.length);
  });
});
