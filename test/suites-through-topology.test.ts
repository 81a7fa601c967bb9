// Every HTTP suite (test/*.http.test.ts) either runs through the deployed topology, in a group of
// scripts/cluster/suites.mjs, or is listed there as in process only with the reason; a suite with
// a part skipped on a cluster says why too; and docs/deploy.md shows the list as it is.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import {
  containerSuites,
  GROUPS,
  IN_PROCESS_ONLY,
  PARTS_IN_PROCESS_ONLY,
  suitesTable,
} from '../scripts/cluster/suites.mjs';

const TEST_DIR = resolve(import.meta.dirname);
const HTTP_SUITES = readdirSync(TEST_DIR)
  .filter((file) => file.endsWith('.http.test.ts'))
  .map((file) => file.slice(0, -'.http.test.ts'.length));
const grouped = GROUPS.flatMap((group) => group.suites);
/** A markdown table as its cells, whatever padding prettier gave the columns. */
const cells = (markdown: string): string =>
  markdown
    .split('\n')
    .map((line) =>
      line
        .split('|')
        .map((cell) => cell.trim().replace(/^-+$/, '-'))
        .join('|'),
    )
    .join('\n');
const source = (suite: string) => readFileSync(join(TEST_DIR, `${suite}.http.test.ts`), 'utf8');

describe('the HTTP suites through the topology (scripts/cluster/suites.mjs)', () => {
  it('lists every HTTP suite exactly once: in a group, or in process only', () => {
    const listed = [...grouped, ...Object.keys(IN_PROCESS_ONLY)];
    expect(HTTP_SUITES.filter((suite) => !listed.includes(suite))).toEqual([]);
    expect(listed.filter((suite) => !HTTP_SUITES.includes(suite))).toEqual([]);
    expect(listed.filter((suite, i) => listed.indexOf(suite) !== i)).toEqual([]);
  });

  it('gives a reason for every suite and part that stays in process', () => {
    for (const why of [...Object.values(IN_PROCESS_ONLY), ...Object.values(PARTS_IN_PROCESS_ONLY)]) {
      expect(why.trim().length).toBeGreaterThan(20);
    }
  });

  it('names exactly the grouped suites whose parts are skipped on a cluster', () => {
    const withParts = grouped.filter((suite) => /\b(describeInProcess|itInProcess)\(/.test(source(suite)));
    expect(withParts.sort()).toEqual(Object.keys(PARTS_IN_PROCESS_ONLY).sort());
  });

  it('names each group once, and says why suites of a group stay out of the containers', () => {
    const names = GROUPS.map((group) => group.name);
    expect(new Set(names).size).toBe(names.length);
    for (const group of GROUPS.filter((g) => g.containers !== undefined)) {
      expect(group.why?.trim()).toBeTruthy();
      // A suite named for the containers is one of the group's.
      expect(containerSuites(group)).toEqual(group.containers || []);
    }
  });

  it('is shown in docs/deploy.md as it is (node scripts/cluster/suites.mjs prints the tables)', () => {
    const doc = readFileSync(resolve(TEST_DIR, '..', 'docs', 'deploy.md'), 'utf8');
    expect(cells(doc)).toContain(cells(suitesTable()));
  });
});
