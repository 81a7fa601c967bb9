// The separate worker process holds no store: what it needs from its environment (capture's and
// measurements' addresses, no MONGODB_URI), and that nothing it loads can open capture's store.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@fieldops/kit';
import { workerPeersFromEnv } from '../src/worker/peers.ts';

const SRC = join(import.meta.dirname, '..', 'src');
const MAIN = join(SRC, 'worker', 'main.ts');

describe('worker peers', () => {
  it('names every missing address in one ConfigError', () => {
    const error = (() => {
      try {
        workerPeersFromEnv({});
      } catch (caught) {
        return caught;
      }
      throw new Error('expected a ConfigError');
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^FIELDOPS_CAPTURE_ADDR is required/),
      expect.stringMatching(/^FIELDOPS_MEASUREMENTS_ADDR is required/),
    ]);
    expect(() => workerPeersFromEnv({ FIELDOPS_MEASUREMENTS_ADDR: 'm:1' })).toThrow(/FIELDOPS_CAPTURE_ADDR/);
  });

  it('answers both addresses when set', () => {
    expect(workerPeersFromEnv({ FIELDOPS_CAPTURE_ADDR: 'c:1', FIELDOPS_MEASUREMENTS_ADDR: 'm:1' })).toEqual({
      capture: 'c:1',
      measurements: 'm:1',
    });
  });
});

/** Every capture source file worker/main.ts loads, following relative imports. */
function loadedFiles(entry: string): Map<string, string> {
  const seen = new Map<string, string>();
  const pending = [entry];
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    seen.set(file, text);
    for (const [, spec] of text.matchAll(/^(?:import|export)[^;]*?from '(\.[^']+)\.ts';/gms)) {
      pending.push(resolve(dirname(file), `${spec}.ts`));
    }
  }
  return seen;
}

describe('the worker process', () => {
  const files = loadedFiles(MAIN);

  it('does not require MONGODB_URI', () => {
    expect(files.get(MAIN)).toMatch(/needs: \['kafkaBrokers'\]/);
  });

  it("loads nothing that opens a store or applies capture's lease rules itself", () => {
    expect(files.size).toBeGreaterThan(5);
    const storeOpeners = /openServiceStore|openRelayedStore|openEmbeddedStore|openMongoStore/;
    const offenders = [...files].filter(([, text]) => storeOpeners.test(text)).map(([file]) => file);
    expect(offenders).toEqual([]);
    const rules = [...files.keys()].filter((file) => file.startsWith(join(SRC, 'runs')));
    expect(rules).toEqual([]);
  });
});
