// One way to wire a service (issue 38): every gRPC service's handler map is derived with handlersOf
// (each RPC served by the exported function of its name, docs/architecture.md), never written out
// as a map of hand lambdas. This reads every service definition the proto stubs generate and every
// service source file, and names each definition no handlersOf call derives.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';

const root = join(import.meta.dirname, '..');

function files(dir: string, ending: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(path, ending);
    return entry.name.endsWith(ending) ? [path] : [];
  });
}

/** `CaptureServiceService`, ... : every service definition of the generated stubs. */
const definitions = files(join(root, 'proto/src/gen'), '.ts').flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/^export const (\w+ServiceService)\b/gm)].map((m) => m[1]!),
);

/** The definitions passed as the first argument of a handlersOf call in a service's sources. */
function derived(): Set<string> {
  const services = readdirSync(join(root, 'services')).map((name) => join(root, 'services', name, 'src'));
  const sources = services.flatMap((dir) => {
    try {
      return files(dir, '.ts');
    } catch {
      return [];
    }
  });
  const calls = sources.flatMap((file) => [
    ...readFileSync(file, 'utf8').matchAll(/handlersOf\(\s*(?:\w+\.)?(\w+ServiceService)\b/g),
  ]);
  return new Set(calls.map((m) => m[1]!));
}

describe('handler maps', () => {
  it('reads the 19 service definitions of the stubs', () => {
    expect(new Set(definitions).size).toBe(19);
  });

  it('derives every one with handlersOf', () => {
    const found = derived();
    expect(definitions.filter((name) => !found.has(name))).toEqual([]);
  });
});
