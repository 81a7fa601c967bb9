// What the standard OpenTelemetry variables ask of this process's tracing, read and checked once at
// start: whether spans are exported (and where), and which share of traces is recorded. A bad value
// stops the process naming the variable (ConfigError), like every other setting (config.ts).
import { ConfigError } from '../config.ts';

export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/**
 * The sampler when exporting and OTEL_TRACES_SAMPLER is unset: a request that arrives with a
 * sampled parent is recorded, and one in DEFAULT_RATIO of the traces that start here. Recording
 * every request would put a span's attributes, its end and its export on every call of the hot
 * path (docs/performance.md, "Tracing"); ids and context travel on every request all the same.
 */
export const DEFAULT_SAMPLER: SamplerName = 'parentbased_traceidratio';
export const DEFAULT_RATIO = 0.1;

export interface TracingSettings {
  /** False under OTEL_SDK_DISABLED=true: no ids, no context, nothing exported. */
  enabled: boolean;
  /** The OTLP/HTTP traces URL (…/v1/traces); undefined: nothing is exported (the default). */
  exportUrl: string | undefined;
  sampler: SamplerName;
  /** The ratio of a traceidratio sampler, 0 to 1. */
  ratio: number;
  /** How long ended spans wait to be exported together (OTEL_BSP_SCHEDULE_DELAY, default 5000 ms). */
  exportDelayMs: number;
}

const nonBlank = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};

/** The traces URL: the traces-specific endpoint as it is, or the shared one with /v1/traces. */
function exportUrlOf(env: NodeJS.ProcessEnv, problems: string[]): string | undefined {
  if (nonBlank(env['OTEL_TRACES_EXPORTER']) === 'none') return undefined;
  const exporter = nonBlank(env['OTEL_TRACES_EXPORTER']);
  if (exporter !== undefined && exporter !== 'otlp') {
    problems.push(`OTEL_TRACES_EXPORTER must be otlp or none, not "${exporter}".`);
  }
  const protocol = nonBlank(env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] ?? env['OTEL_EXPORTER_OTLP_PROTOCOL']);
  if (protocol !== undefined && protocol !== 'http/json') {
    problems.push(
      `OTEL_EXPORTER_OTLP_PROTOCOL must be http/json (the only OTLP protocol this build sends), not "${protocol}"; leave it unset for the default.`,
    );
  }
  const specific = nonBlank(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']);
  const shared = nonBlank(env['OTEL_EXPORTER_OTLP_ENDPOINT']);
  const url = specific ?? (shared ? `${shared.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (url !== undefined && !/^https?:\/\/[^/\s]+/.test(url)) {
    const name = specific ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
    problems.push(
      `${name} must be an http:// or https:// URL of an OTLP/HTTP collector, such as http://otel-collector:4318.`,
    );
  }
  return url;
}

function samplerOf(env: NodeJS.ProcessEnv, problems: string[]): SamplerName {
  const name = nonBlank(env['OTEL_TRACES_SAMPLER']) ?? DEFAULT_SAMPLER;
  if ((SAMPLERS as readonly string[]).includes(name)) return name as SamplerName;
  problems.push(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}, not "${name}".`);
  return DEFAULT_SAMPLER;
}

function ratioOf(env: NodeJS.ProcessEnv, problems: string[]): number {
  const raw = nonBlank(env['OTEL_TRACES_SAMPLER_ARG']);
  if (raw === undefined) return DEFAULT_RATIO;
  const ratio = Number(raw);
  if (Number.isFinite(ratio) && ratio >= 0 && ratio <= 1) return ratio;
  problems.push(
    `OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1 (0.1 records one trace in ten), not "${raw}".`,
  );
  return DEFAULT_RATIO;
}

const DEFAULT_EXPORT_DELAY_MS = 5000;

function exportDelayOf(env: NodeJS.ProcessEnv, problems: string[]): number {
  const raw = nonBlank(env['OTEL_BSP_SCHEDULE_DELAY']);
  if (raw === undefined) return DEFAULT_EXPORT_DELAY_MS;
  if (/^\d+$/.test(raw) && Number(raw) > 0) return Number(raw);
  problems.push(`OTEL_BSP_SCHEDULE_DELAY must be a whole number of milliseconds above 0, not "${raw}".`);
  return DEFAULT_EXPORT_DELAY_MS;
}

/** The process's tracing settings; throws ConfigError naming every bad variable. */
export function tracingSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): TracingSettings {
  const problems: string[] = [];
  const disabled = nonBlank(env['OTEL_SDK_DISABLED'])?.toLowerCase() === 'true';
  const settings: TracingSettings = {
    enabled: !disabled,
    exportUrl: exportUrlOf(env, problems),
    sampler: samplerOf(env, problems),
    ratio: ratioOf(env, problems),
    exportDelayMs: exportDelayOf(env, problems),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}
