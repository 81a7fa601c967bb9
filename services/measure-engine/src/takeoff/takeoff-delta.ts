// The delta between two revisions of a takeoff: lines added, removed and changed (matched by key),
// and for each change which side of the band of the difference it lies on. A change inside its
// band is not distinguishable from measurement error.
import { bandOf, sumIndependent } from '../quantities/bands.ts';
import type {
  Band,
  BandSide,
  FigureChange,
  LineChange,
  QuantityUnit,
  TakeoffDocument,
  TakeoffLine,
  TakeoffTotal,
  TakeoffDelta,
  Uncertainty,
} from '../types.ts';

/**
 * The uncertainty of to − from. Two figures of the same capture share their systematic error,
 * which cancels in the difference; figures of different captures are independent.
 */
function differenceUncertainty(
  from: { uncertainty: Uncertainty | null; captureId?: string },
  to: { uncertainty: Uncertainty | null; captureId?: string },
): Uncertainty | null {
  if (!from.uncertainty || !to.uncertainty) return null;
  if (from.captureId !== undefined && from.captureId === to.captureId) {
    return {
      sigmaRandom: Math.hypot(from.uncertainty.sigmaRandom, to.uncertainty.sigmaRandom),
      sigmaSystematic: Math.abs(to.uncertainty.sigmaSystematic - from.uncertainty.sigmaSystematic),
    };
  }
  return sumIndependent([from.uncertainty, to.uncertainty]);
}

function sideOf(difference: number, band: Band | null): BandSide {
  if (!band) return 'unknown';
  if (difference > band.plusMinus) return 'above';
  if (difference < -band.plusMinus) return 'below';
  return 'within';
}

export function figureChange(
  from: { quantity: number; uncertainty: Uncertainty | null; captureId?: string },
  to: { quantity: number; uncertainty: Uncertainty | null; captureId?: string },
  unit: QuantityUnit,
): FigureChange {
  const difference = to.quantity - from.quantity;
  const u = differenceUncertainty(from, to);
  const band = u ? bandOf(difference, unit, u) : null;
  return { from: from.quantity, to: to.quantity, difference, unit, band, side: sideOf(difference, band) };
}

const lineId = (line: TakeoffLine): string => `${line.key}\u0000${line.unit}`;
const totalId = (total: TakeoffTotal): string => `${total.costCode}\u0000${total.unit}`;

/** Lines match by key and unit; a line whose unit changed is a removal and an addition. */
export function takeoffDelta(from: TakeoffDocument, to: TakeoffDocument): TakeoffDelta {
  const before = new Map(from.lines.map((l) => [lineId(l), l]));
  const after = new Map(to.lines.map((l) => [lineId(l), l]));
  const changed: LineChange[] = [];
  let unchanged = 0;
  for (const [id, line] of after) {
    const old = before.get(id);
    if (!old) continue;
    if (old.quantity === line.quantity) {
      unchanged++;
      continue;
    }
    changed.push({
      key: line.key,
      description: line.description,
      costCode: line.costCode,
      ...figureChange(old, line, line.unit),
    });
  }
  const oldTotals = new Map(from.rollup.map((t) => [totalId(t), t]));
  const rollup = to.rollup.flatMap((t) => {
    const old = oldTotals.get(totalId(t));
    return old ? [{ costCode: t.costCode, ...figureChange(old, t, t.unit) }] : [];
  });
  return {
    added: to.lines.filter((l) => !before.has(lineId(l))),
    removed: from.lines.filter((l) => !after.has(lineId(l))),
    changed,
    unchanged,
    rollup,
  };
}
