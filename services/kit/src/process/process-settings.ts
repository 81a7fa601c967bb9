// Settings only a process of its own reads (the Deployment sets them); `npm start` ignores them.
// Validated like the rest of the configuration: a bad value stops the process naming the variable.
import { z } from 'zod';
import { ConfigError } from '../config.ts';

export interface ProcessSettings {
  /** Port of the ops server: /healthz (liveness), /readyz (readiness), /metrics. */
  opsPort: number;
  /**
   * How long a stopping process keeps serving while /readyz already answers 503, so that load
   * balancers stop sending before the servers close (Kubernetes removes endpoints asynchronously).
   */
  drainMs: number;
  /**
   * Bearer that GET /metrics on the ops port requires (FIELDOPS_METRICS_TOKEN); the chart always
   * sets it. Unset (a local topology), /metrics answers anyone who reaches the port.
   */
  metricsToken: string | undefined;
}

const wholeNumber = (fallback: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `must be a whole number between 0 and ${max}`)
    .transform(Number)
    .pipe(z.number().max(max, `must be at most ${max}`))
    .default(fallback);

const schema = z.object({
  FIELDOPS_OPS_PORT: wholeNumber(9090, 65535),
  FIELDOPS_DRAIN_MS: wholeNumber(0, 600_000),
  FIELDOPS_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

export function loadProcessSettings(env: NodeJS.ProcessEnv = process.env): ProcessSettings {
  const picked = {
    FIELDOPS_OPS_PORT: env.FIELDOPS_OPS_PORT?.trim() || undefined,
    FIELDOPS_DRAIN_MS: env.FIELDOPS_DRAIN_MS?.trim() || undefined,
    FIELDOPS_METRICS_TOKEN: env.FIELDOPS_METRICS_TOKEN?.trim() || undefined,
  };
  const parsed = schema.safeParse(picked);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        // A credential is named, never echoed.
        if (name === 'FIELDOPS_METRICS_TOKEN') return `${name} ${issue.message}`;
        return `${name} ${issue.message} (got "${picked[name as keyof typeof picked] ?? ''}")`;
      }),
    );
  }
  return {
    opsPort: parsed.data.FIELDOPS_OPS_PORT,
    drainMs: parsed.data.FIELDOPS_DRAIN_MS,
    metricsToken: parsed.data.FIELDOPS_METRICS_TOKEN,
  };
}
