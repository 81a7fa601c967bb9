// Log lines a person reads: on a terminal, `npm start` would otherwise print one JSON object per
// request after its banner. Each JSON line the logger writes becomes `time level service message
// fields [request id]`, with an error's stack below it. Only for terminals: piped output and the
// image keep the JSON lines that log collectors parse (log.ts chooses, docs/configuration.md).
import { writeSync } from 'node:fs';

export const LOG_FORMATS = ['json', 'readable'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** LOG_FORMAT when it names a format; otherwise readable on a terminal and JSON everywhere else. */
export function logFormatOf(env: NodeJS.ProcessEnv, isTTY: boolean): LogFormat {
  const chosen = LOG_FORMATS.find((format) => format === env['LOG_FORMAT']);
  return chosen ?? (isTTY ? 'readable' : 'json');
}

// Fields every line has, shown in their own columns or not at all (pid and host are the same on
// every line of one terminal).
const COLUMNS = new Set(['time', 'level', 'service', 'msg', 'requestId', 'pid', 'hostname', 'err', 'route']);

const LEVEL_COLOURS: Record<string, string> = {
  fatal: '\x1b[35m',
  error: '\x1b[31m',
  warn: '\x1b[33m',
  info: '\x1b[32m',
  debug: '\x1b[36m',
  trace: '\x1b[90m',
};
const RESET = '\x1b[0m';

type LogRecord = Record<string, unknown>;

function clock(time: unknown): string {
  return typeof time === 'string' ? (time.slice(11, 23) ?? time) : '';
}

function level(name: unknown, colour: boolean): string {
  const label = String(name ?? '')
    .toUpperCase()
    .padEnd(5);
  const code = LEVEL_COLOURS[String(name)];
  return colour && code ? `${code}${label}${RESET}` : label;
}

/** A request line's method, path, status and time; any other field as key=value. */
function fields(record: LogRecord): string {
  const parts: string[] = [];
  const { method, path, status, ms } = record;
  if (typeof method === 'string' && typeof path === 'string') {
    parts.push(
      `${method} ${path}${status === undefined ? '' : ` ${String(status)}`}${ms === undefined ? '' : ` ${String(ms)}ms`}`,
    );
  }
  const rest = Object.entries(record).filter(
    ([key]) => !COLUMNS.has(key) && !(parts.length > 0 && ['method', 'path', 'status', 'ms'].includes(key)),
  );
  for (const [key, value] of rest)
    parts.push(`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return parts.join(' ');
}

function errorLines(err: unknown): string {
  if (typeof err !== 'object' || err === null) return '';
  const { stack, message } = err as { stack?: unknown; message?: unknown };
  const text =
    typeof stack === 'string' ? stack : typeof message === 'string' ? message : JSON.stringify(err);
  return '\n' + text.replace(/^/gm, '    ');
}

/** One JSON log line as a readable line; a line that is not JSON is returned as it is. */
export function readableLine(json: string, colour = false): string {
  let record: LogRecord;
  try {
    record = JSON.parse(json) as LogRecord;
  } catch {
    return json;
  }
  const head = [
    clock(record['time']),
    level(record['level'], colour),
    String(record['service'] ?? '-').padEnd(12),
  ];
  const body = [String(record['msg'] ?? ''), fields(record)].filter(Boolean).join('  ');
  const requestId = typeof record['requestId'] === 'string' ? `  [${record['requestId']}]` : '';
  return `${head.join(' ')} ${body}${requestId}${errorLines(record['err'])}`;
}

/**
 * A pino destination that writes each line readable, synchronously, to file descriptor `fd`.
 * `flushSync` is there for log.ts, which flushes its buffered JSON stream at warnings; nothing is
 * buffered here, a terminal's lines are few.
 */
export function readableDestination(fd = 1, colour = true) {
  return {
    write(chunk: string): void {
      const lines = chunk.split('\n').filter((line) => line.length > 0);
      writeSync(fd, lines.map((line) => readableLine(line, colour) + '\n').join(''));
    },
    flushSync(): void {},
  };
}
