// Why: `npm run load` and `npm run bench` both take numeric command-line options that must be
// positive; one reader gives both the same refusal sentence.

/** The number an option `--<name>` was given, or undefined when it was not; refuses 0, negatives and non-numbers. */
export function positiveOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`--${name} takes a positive number`);
  return parsed;
}
