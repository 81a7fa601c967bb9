// Why: a service's own tuning settings (exports' packager, webhooks' dispatcher) are read from the
// environment as whole numbers with a default; the reading and its refusal are written once here.

/** The whole number in `env[name]`, `fallback` when unset or blank; refused naming the variable. */
export function wholeNumberFromEnv(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  unit?: string,
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number${unit ? ` of ${unit}` : ''}.`);
  return Number(raw);
}
