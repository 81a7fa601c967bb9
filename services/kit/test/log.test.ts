// The log stream gathers lines into larger writes (log.ts): a warning writes out everything
// before it at once, and an exit writes out the rest; only a hard kill loses the info lines
// logged after the last warning.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURE = join(HERE, 'fixtures', 'log-lines.ts');
const REPO_ROOT = join(HERE, '..', '..', '..');

/** The messages of the lines the fixture wrote to stdout before it ended. */
function messagesOf(how: 'killed' | 'exits'): Promise<string[]> {
  const child = spawn(process.execPath, [FIXTURE, how], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => {
    child.on('close', () => {
      const lines = out.split('\n').filter(Boolean);
      resolve(lines.map((line) => (JSON.parse(line) as { msg: string }).msg));
    });
  });
}

describe('the log stream', () => {
  it('writes a warning, and every line before it, at once', async () => {
    expect(await messagesOf('killed')).toEqual(['first info', 'a warning']);
  });

  it('writes the buffered lines when the process exits', async () => {
    expect(await messagesOf('exits')).toEqual(['first info']);
  });
});
