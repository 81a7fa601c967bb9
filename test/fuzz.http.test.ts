// The fuzz suite (issue 15): hostile requests generated from the endpoint registry for every
// operation (test/support/fuzz-cases.ts), sent to the real platform. It asserts that no answer is
// a 5xx, that every refusal is the spec's envelope, that no write was applied (record counts of
// every top-level list and the audit trail's length are unchanged) and that no prototype was
// polluted. Seeded (FUZZ_SEED) and bounded in time (FUZZ_BUDGET_MS); it prints its figures.
import { ERROR_CATALOGUE } from '@fieldops/kit';
import { buildRegistry, type PipelineDeps } from '@fieldops/gateway';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { fuzzPlan, type FuzzCase } from './support/fuzz-cases.ts';
import { eventually, type ApiRequestPath } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';
import { rawRequest, type RawReply } from './support/raw-http.ts';
import { newCustomer, newProject } from './support/projects.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
/** Stops sending new cases after this long; the figures say how many were sent. */
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 30_000);
const CONCURRENCY = 4;

// Built only to read the declarations; no handler runs here.
const registry = buildRegistry({} as PipelineDeps);

const { platform, api, token } = await suiteTenant('Fuzz Co');
beforeAll(async () => {
  // A little data, so that "nothing changed" compares real counts.
  const customerId = await newCustomer(api, 'Fuzz Target Ltd');
  await newProject(api, customerId);
  await api.post('/leads', { name: 'Fuzz Lead' });
});

/** Every list without path parameters (the audit trail aside), paged to the end: a count of what the tenant holds. */
async function recordCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const endpoint of registry) {
    if (!endpoint.list || endpoint.method !== 'GET' || endpoint.path.includes(':')) continue;
    // The audit trail is counted by auditLength; the change feed is a log of events, not records.
    if (endpoint.path === '/audit' || endpoint.path === '/changes') continue;
    let total = 0;
    let cursor = '';
    do {
      // A registry path is in the document by construction.
      const path = `${endpoint.path}?limit=100${cursor ? `&cursor=${cursor}` : ''}` as ApiRequestPath;
      const page = await api.get(path);
      if (page.status !== 200) break; // a list this token may not read (e.g. needs a binding)
      const items = page.body.items as unknown[];
      total += items.length;
      // A feed (GET /changes) always hands back a cursor to poll with: an empty page ends it.
      cursor = items.length ? String(page.body.nextCursor ?? '') : '';
    } while (cursor);
    counts[endpoint.path] = total;
  }
  return counts;
}

/** The audit trail's length once every write so far has reached it (a sentinel write marks "so far"). */
async function auditLength(marker: string): Promise<number> {
  const created = await api.post('/leads', { name: marker });
  const leadId = (created.body.lead as { id: string }).id;
  await eventually(async () => {
    const entries = await api.get(`/audit?resourceId=${leadId}`);
    return (entries.body.items as unknown[]).length > 0 ? true : undefined;
  });
  const verified = await api.get('/audit/verify');
  expect(verified.body.valid).toBe(true);
  return Number(verified.body.length);
}

function envelopeProblem(reply: RawReply): string | undefined {
  const body = reply.body;
  if (!body) return 'not JSON';
  if (body.ok !== false) return 'ok is not false';
  if (typeof body.code !== 'string' || !Object.hasOwn(ERROR_CATALOGUE, body.code)) return 'unknown code';
  if (typeof body.error !== 'string' || body.error === '') return 'no error sentence';
  if (typeof body.retryable !== 'boolean') return 'no retryable flag';
  return undefined;
}

interface Figures {
  planned: number;
  sent: number;
  byStatus: Record<string, number>;
  operations: Set<string>;
  failures: string[];
}

function judge(fuzz: FuzzCase, reply: RawReply, figures: Figures): void {
  figures.byStatus[String(reply.status)] = (figures.byStatus[String(reply.status)] ?? 0) + 1;
  const label = `${fuzz.method} ${fuzz.path.slice(0, 80)} [${fuzz.what}]`;
  if (reply.status === 0) figures.failures.push(`${label}: ${reply.text}`);
  if (reply.status >= 500) figures.failures.push(`${label}: ${reply.status} ${reply.text.slice(0, 200)}`);
  if (fuzz.write && reply.status < 400)
    figures.failures.push(`${label}: a write was accepted (${reply.status})`);
  if (reply.status >= 400) {
    const problem = envelopeProblem(reply);
    if (problem) figures.failures.push(`${label}: ${reply.status} without the envelope (${problem})`);
    else if (reply.status >= 500 && reply.body?.retryable === true && reply.body.code === 'internal') {
      figures.failures.push(`${label}: internal marked retryable`);
    }
  }
}

async function run(plan: FuzzCase[]): Promise<Figures> {
  const figures: Figures = {
    planned: plan.length,
    sent: 0,
    byStatus: {},
    operations: new Set(),
    failures: [],
  };
  const deadline = Date.now() + BUDGET_MS;
  let next = 0;
  const worker = async () => {
    while (next < plan.length && Date.now() < deadline) {
      const fuzz = plan[next++] as FuzzCase;
      figures.sent += 1;
      const reply = await rawRequest(platform.url, fuzz).catch((err: Error) => ({
        status: 0,
        headers: {},
        body: undefined,
        text: err.message,
      }));
      figures.operations.add(fuzz.operationId);
      judge(fuzz, reply, figures);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return figures;
}

describe('fuzzing every operation of the registry', () => {
  it('never answers 5xx, always the envelope, and changes nothing', async () => {
    const auditBefore = await auditLength('Fuzz sentinel before');
    const countsBefore = await recordCounts();
    const plan = fuzzPlan(registry, token, SEED);
    const figures = await run(plan);
    const auditAfter = await auditLength('Fuzz sentinel after');
    const countsAfter = await recordCounts();
    const fiveXx = Object.entries(figures.byStatus)
      .filter(([status]) => Number(status) >= 500)
      .reduce((sum, [, n]) => sum + n, 0);
    process.stdout.write(
      `${[
        `fuzz: seed ${SEED}, ${figures.sent} of ${figures.planned} requests sent within ${BUDGET_MS} ms`,
        `over ${figures.operations.size} of ${registry.length} operations; 5xx = ${fiveXx}`,
        `statuses ${JSON.stringify(figures.byStatus)}; failures ${figures.failures.length}`,
      ].join('\n')}\n`,
    );
    expect(figures.failures.slice(0, 20)).toEqual([]);
    expect(fiveXx).toBe(0);
    expect(figures.operations.size).toBe(registry.length);
    // Only the second sentinel lead was written in between.
    expect(auditAfter).toBe(auditBefore + 1);
    expect({ ...countsAfter, '/leads': (countsAfter['/leads'] ?? 0) - 1 }).toEqual(countsBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 180_000);
});
