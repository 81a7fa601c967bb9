// The log's two forms (log-readable.ts): JSON lines when the output is piped or the image runs,
// readable lines on a terminal, LOG_FORMAT choosing either way. The fixture process logs through
// createLogger, so its output is what a service prints.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { logFormatOf, readableLine } from '../src/log-readable.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURE = join(HERE, 'fixtures', 'log-lines.ts');
const REPO_ROOT = join(HERE, '..', '..', '..');

/** The fixture's stdout lines, with LOG_FORMAT set as given (stdout is a pipe, not a terminal). */
function fixtureLines(logFormat: string | undefined): string[] {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['LOG_FORMAT'];
  if (logFormat !== undefined) env['LOG_FORMAT'] = logFormat;
  const run = spawnSync(process.execPath, [FIXTURE, 'exits'], {
    cwd: REPO_ROOT,
    env,
    encoding: 'utf8',
  });
  return run.stdout.split('\n').filter(Boolean);
}

describe('choosing the log format', () => {
  it('prints readable lines on a terminal and JSON when piped', () => {
    expect(logFormatOf({}, true)).toBe('readable');
    expect(logFormatOf({}, false)).toBe('json');
  });

  it('follows LOG_FORMAT over the terminal check', () => {
    expect(logFormatOf({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormatOf({ LOG_FORMAT: 'readable' }, false)).toBe('readable');
    expect(logFormatOf({ LOG_FORMAT: 'pretty' }, false)).toBe('json');
  });
});

describe('a readable line', () => {
  const request = JSON.stringify({
    level: 'info',
    time: '2026-11-27T05:16:52.123Z',
    service: 'gateway',
    pid: 7,
    hostname: 'h',
    requestId: 'req_1',
    method: 'GET',
    path: '/leads',
    route: '/leads',
    status: 200,
    ms: 3,
    msg: 'request',
  });

  it('shows time, level, service, message, the request and its id', () => {
    expect(readableLine(request)).toBe(
      '05:16:52.123 INFO  gateway      request  GET /leads 200 3ms  [req_1]',
    );
  });

  it('colours the level only when asked', () => {
    expect(readableLine(request, true)).toContain('\x1b[32mINFO \x1b[0m');
    expect(readableLine(request)).not.toContain('\x1b[');
  });

  it("keeps other fields as key=value and puts an error's stack below the line", () => {
    const line = JSON.stringify({
      level: 'error',
      time: '2026-11-27T05:16:52.123Z',
      service: 'crm',
      msg: 'relay failed',
      topic: 'fieldops.crm.events',
      err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at relay (relay.ts:1:1)' },
    });
    expect(readableLine(line).split('\n')).toEqual([
      '05:16:52.123 ERROR crm          relay failed  topic=fieldops.crm.events',
      '    Error: boom',
      '        at relay (relay.ts:1:1)',
    ]);
  });

  it('passes a line that is not JSON through as it is', () => {
    expect(readableLine('not json')).toBe('not json');
  });
});

describe('what a service prints', () => {
  it('writes JSON lines when its output is piped', () => {
    const [line] = fixtureLines(undefined);
    expect(JSON.parse(line ?? '')).toMatchObject({ level: 'info', service: 'log-test', msg: 'first info' });
  });

  it('writes readable lines when LOG_FORMAT=readable', () => {
    expect(fixtureLines('readable')).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}log-test +first info$/),
    ]);
  });
});
