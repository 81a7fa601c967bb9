// Runs the shared scenarios (../scenarios) under k6: a flow's requests go through k6/http, tagged
// with the step; its checks through k6's check(); its thresholds become options.thresholds on the
// scenario's own tagged metrics. The scripts beside this file only pick which scenarios to run.
//
// Environment (k6 -e NAME=value or the shell):
//   BASE_URL      the deployment, e.g. https://api.example.com (default http://127.0.0.1:8080)
//   TOKEN         a Manager token of the tenant to load, or
//   ADMIN_SECRET  the operator secret: setup creates a fresh tenant and token through /admin/v1
//   DURATION      how long each scenario runs (default 1m); with ITERATIONS, the most it may take
//   ITERATIONS    iterations each scenario completes, shared by its VUs (shared-iterations); unset:
//                 a timed run (constant-vus)
//   VUS           virtual users of every scenario (default: each scenario's own)
//   SCENARIOS     comma-separated names to run (all.ts only; default all)
import { check, sleep } from 'k6';
import http from 'k6/http';
import type { Options } from 'k6/options';
import { isAbsolute, runId, type Flow, type Reply, type RequestSpec } from '../scenarios/http.ts';
import type { Scenario, SetupOutcome } from '../scenarios/scenario.ts';
import { provisionTenant } from '../scenarios/tenant.ts';
import { k6Thresholds } from '../scenarios/thresholds.ts';

export interface SetupData {
  base: string;
  token: string;
  run: string;
  outcomes: Record<string, SetupOutcome<unknown>>;
}

const base = (__ENV.BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const duration = __ENV.DURATION ?? '1m';
const iterations = __ENV.ITERATIONS ? Number(__ENV.ITERATIONS) : undefined;

const vusOf = (scenario: Scenario): number => Number(__ENV.VUS ?? scenario.vus);

/** The scenarios a script runs, narrowed by SCENARIOS when set. */
export function selected(scenarios: readonly Scenario[]): Scenario[] {
  const names = (__ENV.SCENARIOS ?? '').split(',').filter((name) => name.trim() !== '');
  return names.length ? scenarios.filter((s) => names.includes(s.name)) : [...scenarios];
}

/**
 * One k6 scenario per load scenario, all at once, each with its own thresholds: constant VUs for
 * DURATION, or ITERATIONS shared by the VUs (the Node runner's --iterations).
 */
export function optionsFor(scenarios: readonly Scenario[]): Options {
  const executors: NonNullable<Options['scenarios']> = {};
  const thresholds: NonNullable<Options['thresholds']> = {};
  for (const scenario of scenarios) {
    const vus = vusOf(scenario);
    executors[scenario.name] = iterations
      ? { executor: 'shared-iterations', exec: scenario.name, vus, iterations, maxDuration: duration }
      : { executor: 'constant-vus', exec: scenario.name, vus, duration };
    Object.assign(thresholds, k6Thresholds(scenario.name, scenario.thresholds));
  }
  return { scenarios: executors, thresholds };
}

function lowercased(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

function parse(body: unknown): unknown {
  if (typeof body !== 'string' || body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Sends one request of a flow: API paths under BASE_URL with the token, absolute URLs as given. */
function perform(token: string, spec: RequestSpec): Reply {
  const absolute = isAbsolute(spec.path);
  const headers = { ...(absolute ? {} : { authorization: `Bearer ${token}` }), ...spec.headers };
  const res = http.request(spec.method, absolute ? spec.path : `${base}${spec.path}`, spec.body ?? null, {
    headers,
    tags: { step: spec.step },
    responseCallback: http.expectedStatuses(...spec.expect),
    timeout: '30s',
  });
  return { status: res.status, headers: lowercased(res.headers), body: parse(res.body) };
}

function drive<T>(flow: Flow<T>, token: string): T {
  let next = flow.next();
  while (!next.done) next = flow.next(perform(token, next.value));
  return next.value;
}

/** k6 setup(): a tenant if need be, then each scenario's own setup (seeding, or a skip reason). */
export function setupAll(scenarios: readonly Scenario[]): SetupData {
  const run = runId();
  let token = __ENV.TOKEN ?? '';
  if (!token && __ENV.ADMIN_SECRET) {
    token = drive(provisionTenant(`k6 load test ${run}`, __ENV.ADMIN_SECRET), '').token;
  }
  if (!token) throw new Error('set TOKEN (a Manager token) or ADMIN_SECRET (the operator secret)');
  // The highest __VU any scenario will see, for setups that make a record per VU.
  const vus = scenarios.reduce((sum, scenario) => sum + vusOf(scenario), 0);
  const outcomes: SetupData['outcomes'] = {};
  for (const scenario of scenarios) {
    const outcome = drive(scenario.setup({ vus, run }), token);
    if ('skip' in outcome) console.warn(`${scenario.name}: skipped: ${outcome.skip}`);
    outcomes[scenario.name] = outcome;
  }
  return { base, token, run, outcomes };
}

const skipNoted = new Set<string>();

/** One iteration of `scenario` for the current VU. */
export function iterate(scenario: Scenario, data: SetupData): void {
  const outcome = data.outcomes[scenario.name];
  if (!outcome || 'skip' in outcome) {
    // One passing check per VU keeps the scenario's checks threshold meaningful when skipped.
    if (!skipNoted.has(scenario.name)) {
      skipNoted.add(scenario.name);
      check(null, { [`skipped: ${outcome?.skip ?? 'no setup'}`]: () => true });
    }
    sleep(1);
    return;
  }
  const tools = { check: (name: string, ok: boolean) => void check(null, { [name]: () => ok }) };
  drive(scenario.iteration(outcome.data, { vu: __VU, iteration: __ITER, run: data.run }, tools), data.token);
}
