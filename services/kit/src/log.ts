// Structured JSON logs (pino) on stdout, where the container runtime collects them.
import { hostname } from 'node:os';
import { pino } from 'pino';
import type { DestinationStream, Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

// Credentials must never reach a log line, whatever object a caller hands to the logger.
const REDACT_PATHS = [
  'authorization',
  'cookie',
  'secret',
  'password',
  'adminSecret',
  '*.authorization',
  '*.cookie',
  '*.secret',
  '*.password',
  '*.adminSecret',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["x-service-confirm"]',
  '*.*.headers.authorization',
  '*.*.secret',
  'headers.authorization',
  'headers.cookie',
  'headers["x-service-confirm"]',
];

// One stdout stream per process: every service running in-process shares it instead of each
// opening its own writer on fd 1.
let stdout: DestinationStream | undefined;

function destination(): DestinationStream {
  stdout ??= pino.destination({ dest: 1, sync: true });
  return stdout;
}

/** A logger whose lines carry `service: name`; `level` defaults to info ('silent' for tests). */
export function createLogger(name: string, level = 'info'): Logger {
  return pino(
    {
      level,
      base: { service: name, pid: process.pid, hostname: hostname() },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Level names rather than numbers, so log queries read `level:"error"`.
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: pino.stdSerializers.errWithCause },
    },
    destination(),
  );
}
