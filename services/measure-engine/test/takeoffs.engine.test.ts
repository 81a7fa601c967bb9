// Takeoff arithmetic: rollup by cost code with the provenance mix, null bands where a drawn line
// takes part, and the delta's band sides (a change inside the band is not a change one can see).
import { describe, expect, it } from '@jest/globals';
import { buildTakeoff, takeoffDelta } from '../src/index.ts';
import type { TakeoffLine } from '../src/index.ts';
import { bandOf } from '../src/quantities/bands.ts';

const captured = (
  key: string,
  quantity: number,
  sigma: number,
  captureId = 'cap_1',
  costCode = '31-23',
): TakeoffLine => {
  const uncertainty = { sigmaRandom: sigma, sigmaSystematic: sigma / 2 };
  return {
    key,
    description: key,
    costCode,
    quantity,
    unit: 'm3',
    band: bandOf(quantity, 'm3', uncertainty),
    uncertainty,
    provenance: 'captured',
    captureId,
  };
};
const drawn = (key: string, quantity: number, costCode = '31-23'): TakeoffLine => ({
  key,
  description: key,
  costCode,
  quantity,
  unit: 'm3',
  band: null,
  uncertainty: null,
  provenance: 'drawn',
});

describe('takeoff documents', () => {
  it('rolls up by cost code, reports the mix on every total and never invents a band', () => {
    const doc = buildTakeoff({
      lines: [
        captured('a', 100, 2),
        captured('b', 50, 1),
        drawn('c', 10),
        captured('d', 5, 1, 'cap_1', '02-10'),
      ],
      scope: 'Stockpiles, north yard',
      assumptions: ['Loose bulk state'],
      disclosures: [],
    });
    const earth = doc.rollup.find((t) => t.costCode === '31-23');
    expect(earth).toMatchObject({
      quantity: 160,
      band: null,
      mixed: true,
      provenance: { captured: 2, drawn: 1 },
      lineCount: 3,
    });
    const other = doc.rollup.find((t) => t.costCode === '02-10');
    expect(other?.mixed).toBe(false);
    expect(other?.band).toMatchObject({ unit: 'm3' });
    expect(doc.mixed).toBe(true);
    expect(doc.disclosures.join(' ')).toMatch(/carry no band/);
  });

  it('adds systematic errors of one capture linearly and of two captures in quadrature', () => {
    const same = buildTakeoff({
      lines: [captured('a', 100, 2), captured('b', 100, 2)],
      scope: '',
      assumptions: [],
      disclosures: [],
    });
    const apart = buildTakeoff({
      lines: [captured('a', 100, 2, 'cap_1'), captured('b', 100, 2, 'cap_2')],
      scope: '',
      assumptions: [],
      disclosures: [],
    });
    expect(same.rollup[0]?.uncertainty?.sigmaSystematic).toBeCloseTo(2, 9);
    expect(apart.rollup[0]?.uncertainty?.sigmaSystematic).toBeCloseTo(Math.SQRT2, 9);
  });
});

describe('takeoff delta', () => {
  const from = buildTakeoff({
    lines: [captured('a', 100, 2, 'cap_1'), captured('b', 50, 1, 'cap_1'), drawn('c', 10), drawn('gone', 3)],
    scope: '',
    assumptions: [],
    disclosures: [],
  });
  const to = buildTakeoff({
    lines: [
      captured('a', 130, 2, 'cap_2'),
      captured('b', 50.5, 1, 'cap_2'),
      drawn('c', 12),
      captured('new', 7, 1, 'cap_2'),
    ],
    scope: '',
    assumptions: [],
    disclosures: [],
  });
  const delta = takeoffDelta(from, to);

  it('lists added, removed and changed lines by key', () => {
    expect(delta.added.map((l) => l.key)).toEqual(['new']);
    expect(delta.removed.map((l) => l.key)).toEqual(['gone']);
    expect(delta.changed.map((c) => c.key).sort()).toEqual(['a', 'b', 'c']);
  });

  it('says which side of the band each change lies on', () => {
    const side = (key: string) => delta.changed.find((c) => c.key === key);
    expect(side('a')).toMatchObject({ difference: 30, side: 'above' });
    expect(side('b')).toMatchObject({ side: 'within' });
    expect(side('c')).toMatchObject({ difference: 2, band: null, side: 'unknown' });
    const down = takeoffDelta(to, from).changed.find((c) => c.key === 'a');
    expect(down).toMatchObject({ difference: -30, side: 'below' });
  });

  it('cancels the shared systematic error when both revisions come from one capture', () => {
    const again = buildTakeoff({
      lines: [captured('a', 101, 2, 'cap_1')],
      scope: '',
      assumptions: [],
      disclosures: [],
    });
    const change = takeoffDelta(from, again).changed[0];
    expect(change?.band?.plusMinus).toBeCloseTo(1.96 * Math.SQRT2 * 2, 2);
  });
});
