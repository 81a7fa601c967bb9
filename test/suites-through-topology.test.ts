// Every HTTP suite (test/*.http.test.ts) either runs through the deployed topology, in a group of
// scripts/cluster/suites.mjs, or is listed there as in process only with the reason; a suite with
// a part skipped on a cluster says why too; and docs/deploy.md shows the list as it is.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { loadConfig, type Config } from '@fieldops/kit';
import {
  containerSuites,
  GATEWAY_SETTINGS,
  GROUPS,
  IN_PROCESS_ONLY,
  PARTS_IN_PROCESS_ONLY,
  sharesCluster,
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

  it('runs a group on the cluster before it only when no earlier group closes it and the gateway alone differs', () => {
    const shared = GROUPS.filter((group, i) => sharesCluster(GROUPS[i - 1], group)).map(
      (group) => group.name,
    );
    expect(shared).toEqual(
      expect.arrayContaining([
        'proposals',
        'invoices',
        'one-compute',
        'lead-qualify',
        'rate-limits',
        'cursors',
      ]),
    );
    for (const [i, group] of GROUPS.entries()) {
      const before = GROUPS[i - 1];
      if (before?.closesCluster) expect(sharesCluster(before, group)).toBe(false);
    }
    // Webhook settings are the dispatcher's: a change of them is a cluster of its own.
    const webhooks = GROUPS.filter((group) => group.name.startsWith('webhook-'));
    expect(webhooks.length).toBeGreaterThan(1);
    for (const group of webhooks) expect(sharesCluster(GROUPS[GROUPS.indexOf(group) - 1], group)).toBe(false);
  });
});

/** A valid value other than the default, where 4321 is not one (the HTTP deadlines are checked together). */
const SAMPLE_VALUES: Record<string, string> = {
  FIELDOPS_CURSOR_KEY: 'k'.repeat(40),
  FIELDOPS_HTTP_HEADERS_TIMEOUT_MS: '5000',
  FIELDOPS_HTTP_REQUEST_TIMEOUT_MS: '40000',
  FIELDOPS_HTTP_UPLOAD_TIMEOUT_MS: '7200000',
  FIELDOPS_HTTP_KEEP_ALIVE_TIMEOUT_MS: '70000',
};

/** The Config fields of the settings a cluster changes by restarting its gateway alone. */
const GATEWAY_FIELDS: readonly (keyof Config)[] = [
  'rateLimits',
  'budgets',
  'tenantBudgets',
  'tokenCaps',
  'cursorKey',
  'http',
];

/** Every .ts source of the services and the platform (not the gateway's), with its path. */
function nonGatewaySources(): { path: string; text: string }[] {
  const root = resolve(TEST_DIR, '..');
  const dirs = [
    join(root, 'platform', 'src'),
    ...readdirSync(join(root, 'services')).map((name) => join(root, 'services', name, 'src')),
  ];
  return dirs.flatMap((dir) =>
    (readdirSync(dir, { recursive: true, withFileTypes: false }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .map((file) => ({
        path: relative(root, join(dir, file)),
        text: readFileSync(join(dir, file), 'utf8'),
      })),
  );
}

describe('the settings a test cluster gives its gateway alone (GATEWAY_SETTINGS in suites.mjs)', () => {
  const defaults = loadConfig({}, '/');

  it('each set only Config fields of the gateway', () => {
    for (const name of GATEWAY_SETTINGS) {
      const value = SAMPLE_VALUES[name] ?? '4321';
      const changed = loadConfig({ [name]: value }, '/');
      const fields = (Object.keys(changed) as (keyof Config)[]).filter(
        (field) => JSON.stringify(changed[field]) !== JSON.stringify(defaults[field]),
      );
      const others = fields.filter((field) => !GATEWAY_FIELDS.includes(field));
      expect({ name, count: fields.length, others }).toEqual({ name, count: 1, others: [] });
    }
  });

  it('are used by no code outside the gateway (services/*/src, platform/src)', () => {
    const field = new RegExp(
      `\\.(${GATEWAY_FIELDS.filter((f) => f !== 'http').join('|')})\\b|\\bconfig\\.http\\b`,
    );
    const users = nonGatewaySources()
      .filter(({ path }) => path !== join('services', 'kit', 'src', 'config.ts'))
      .filter(({ text }) => field.test(text))
      .map(({ path }) => path);
    expect(users).toEqual([]);
  });
});
