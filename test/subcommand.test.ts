// The project's CLIs (`npm run kafka|s3|image|cluster -- <command>`) end in runSubcommand: an
// unknown command prints the usage and exits 2, a failed one says why and exits 1. A failure whose
// error has no message of its own (an AggregateError, as a connect that tried several addresses
// throws) must still say why, not exit 1 in silence.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const subcommand = pathToFileURL(join(import.meta.dirname, '..', 'scripts', 'subcommand.mjs')).href;

/** Runs a CLI made of `commands` (JavaScript source of the commands object) with `argv`. */
function cli(commands: string, argv: string[]) {
  const source = `import { runSubcommand } from ${JSON.stringify(subcommand)};
runSubcommand(${commands}, 'tool -- start|stop');`;
  // Under -e, argv[1] is the first argument after the source: a stand-in for the script's path.
  return spawnSync(process.execPath, ['--input-type=module', '-e', source, 'cli.mjs', ...argv], {
    encoding: 'utf8',
  });
}

describe('runSubcommand', () => {
  test('an unknown command prints the usage and exits 2', () => {
    const run = cli('{ start: async () => {} }', ['restart']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('usage: tool -- start|stop');
  });

  test("a failed command prints its error's message and exits 1", () => {
    const run = cli("{ start: async () => { throw new Error('the broker did not start'); } }", ['start']);
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe('the broker did not start');
  });

  test('a failure without a message of its own prints the errors it holds', () => {
    const run = cli(
      `{ start: async () => { throw new AggregateError([
        new Error('connect ECONNREFUSED ::1:9092'), new Error('connect ECONNREFUSED 127.0.0.1:9092')]); } }`,
      ['start'],
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('connect ECONNREFUSED ::1:9092');
    expect(run.stderr).toContain('connect ECONNREFUSED 127.0.0.1:9092');
  });
});
