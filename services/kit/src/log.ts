// Structured JSON logs (pino) on stdout, where the container runtime collects them; on a terminal
// (`npm start`) the same lines readable instead (log-readable.ts, LOG_FORMAT overrides).
import { hostname } from 'node:os';
import { pino, type LogFn, type Logger as PinoLogger } from 'pino';
import { logFormatOf, readableDestination } from './log-readable.ts';
import { traceFieldsOfActive } from './tracing/hops.ts';

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
// opening its own writer on fd 1. Lines are gathered into writes of up to BUFFER_BYTES instead of
// one write(2) per line (a request line each, on every request): a line at warn or above writes
// out everything before it at once, a timer every FLUSH_MS and the process's exit write the rest.
// A hard kill (SIGKILL, the OOM killer) loses at most those last info lines (docs/decisions.md).
const BUFFER_BYTES = 4096;
const FLUSH_MS = 200;
type Stdout = ReturnType<typeof pino.destination> | ReturnType<typeof readableDestination>;
let stdout: Stdout | undefined;

function destination(): Stdout {
  if (stdout) return stdout;
  const terminal = process.stdout.isTTY === true;
  if (logFormatOf(process.env, terminal) === 'readable') {
    // Colours only on a terminal, and not when NO_COLOR asks for none (no-color.org).
    stdout = readableDestination(1, terminal && !process.env['NO_COLOR']);
    return stdout;
  }
  const stream = pino.destination({ dest: 1, sync: true, minLength: BUFFER_BYTES, periodicFlush: FLUSH_MS });
  process.on('exit', () => stream.flushSync());
  stdout = stream;
  return stream;
}

const WARN = pino.levels.values['warn'] ?? 40;

/** Writes a warning, an error or a fatal line (and all before it) at once, as the line is logged. */
function flushAtWarn(this: PinoLogger, args: Parameters<LogFn>, method: LogFn, level: number): void {
  method.apply(this, args);
  if (level >= WARN) destination().flushSync();
}

/**
 * A logger whose lines carry `service: name` and, inside a traced hop, `trace_id` and `span_id`;
 * `level` defaults to info ('silent' for tests).
 */
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
      hooks: { logMethod: flushAtWarn },
      // The trace and span of the work that logs (tracing/hops.ts): a line of any process is
      // found from the trace of its request, and the trace from the line.
      mixin: traceFieldsOfActive,
    },
    destination(),
  );
}
