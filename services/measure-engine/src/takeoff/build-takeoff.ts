// A takeoff: a quantity document of lines in canonical SI, each captured (measured on a capture,
// with its band) or drawn (entered by a person: no honest tolerance, so band null), rolled up by
// cost code with the provenance mix on every total.
import { bandOf, sumIndependent, sumSameCapture } from '../quantities/bands.ts';
import type { ProvenanceMix, TakeoffDocument, TakeoffLine, TakeoffTotal, Uncertainty } from '../types.ts';

function mixOf(lines: readonly TakeoffLine[]): ProvenanceMix {
  return {
    captured: lines.filter((l) => l.provenance === 'captured').length,
    drawn: lines.filter((l) => l.provenance === 'drawn').length,
  };
}

/**
 * Uncertainty of a sum of lines: lines of one capture share their systematic part (added
 * linearly), different captures are independent. Null when any line has none: a total is no
 * better known than its least-known part.
 */
export function sumLines(lines: readonly TakeoffLine[]): Uncertainty | null {
  if (lines.some((l) => l.uncertainty === null)) return null;
  const byCapture = new Map<string, Uncertainty[]>();
  for (const line of lines) {
    const key = line.captureId ?? `line:${line.key}`;
    byCapture.set(key, [...(byCapture.get(key) ?? []), line.uncertainty as Uncertainty]);
  }
  return sumIndependent([...byCapture.values()].map(sumSameCapture));
}

function total(costCode: string, lines: readonly TakeoffLine[]): TakeoffTotal {
  const quantity = lines.reduce((a, l) => a + l.quantity, 0);
  const unit = (lines[0] as TakeoffLine).unit;
  const uncertainty = sumLines(lines);
  const provenance = mixOf(lines);
  return {
    costCode,
    unit,
    quantity,
    band: uncertainty ? bandOf(quantity, unit, uncertainty) : null,
    uncertainty,
    provenance,
    mixed: provenance.captured > 0 && provenance.drawn > 0,
    lineCount: lines.length,
  };
}

/** Totals per cost code and unit (a cost code holding m³ and t lines gets one total of each). */
export function rollupByCostCode(lines: readonly TakeoffLine[]): TakeoffTotal[] {
  const groups = new Map<string, TakeoffLine[]>();
  for (const line of lines) {
    const key = `${line.costCode}\u0000${line.unit}`;
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  return [...groups.values()]
    .map((group) => total((group[0] as TakeoffLine).costCode, group))
    .sort((a, b) => a.costCode.localeCompare(b.costCode) || a.unit.localeCompare(b.unit));
}

export function buildTakeoff(input: {
  lines: readonly TakeoffLine[];
  scope: string;
  assumptions: readonly string[];
  disclosures: readonly string[];
}): TakeoffDocument {
  const provenance = mixOf(input.lines);
  const disclosures = [...input.disclosures];
  if (provenance.drawn > 0) {
    disclosures.push(
      `${provenance.drawn} line(s) were drawn or entered by a person and carry no band; totals that include them carry none either.`,
    );
  }
  return {
    lines: input.lines,
    rollup: rollupByCostCode(input.lines),
    provenance,
    mixed: provenance.captured > 0 && provenance.drawn > 0,
    scope: input.scope,
    assumptions: input.assumptions,
    disclosures,
  };
}
