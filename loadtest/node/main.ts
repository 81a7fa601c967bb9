// `npm run load`: the k6 scenarios (loadtest/scenarios) driven by autocannon from Node, for
// machines where k6 cannot be installed. Starts the platform on a temporary data dir (or uses one
// given with --url and --admin-secret), runs each scenario in turn on a fresh tenant, evaluates
// its thresholds and prints the tables. docs/load-testing.md explains the figures.
//
// Options: --duration <s per scenario> (10)  --iterations <n per scenario, --duration then bounds it>
//          --connections <n> (each scenario's own VUs)
//          --only <name,...>  --url <origin> --admin-secret <s> | --token <t>  --json  --keep
// Exit status: 0 when every scenario that ran met its thresholds (a skipped one does not fail the
// run), 1 when one did not, 2 when the run itself could not happen.
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { runId } from '../scenarios/http.ts';
import { scenarioNamed, SCENARIOS, type Scenario } from '../scenarios/index.ts';
import { provisionTenant } from '../scenarios/tenant.ts';
import { runFlow, type Target } from './fetch-flow.ts';
import { startLocalPlatform, type LocalPlatform } from './platform.ts';
import { positiveOption } from './positive-option.ts';
import { notes, scenarioTable, stepTable, thresholdTable } from './report.ts';
import { runScenario, type ScenarioResult } from './run-scenario.ts';

interface Options {
  seconds: number;
  iterations: number | undefined;
  connections: number | undefined;
  scenarios: Scenario[];
  url: string | undefined;
  adminSecret: string | undefined;
  token: string | undefined;
  json: boolean;
  keep: boolean;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string' },
      iterations: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
      url: { type: 'string' },
      'admin-secret': { type: 'string' },
      token: { type: 'string' },
      json: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
    },
  });
  const connections = positiveOption('connections', values.connections);
  const iterations = positiveOption('iterations', values.iterations);
  const url = values.url?.replace(/\/+$/, '');
  if (url && !values['admin-secret'] && !values.token)
    throw new Error('--url needs --admin-secret or --token');
  return {
    seconds: positiveOption('duration', values.duration) ?? (iterations ? 600 : 10),
    iterations: iterations === undefined ? undefined : Math.ceil(iterations),
    connections: connections === undefined ? undefined : Math.round(connections),
    scenarios: values.only
      ? values.only.split(',').map((name) => scenarioNamed(name.trim()))
      : [...SCENARIOS],
    url,
    adminSecret: values['admin-secret'],
    token: values.token,
    json: values.json ?? false,
    keep: values.keep ?? false,
  };
}

export function machine(): string {
  const cpu = cpus();
  return (
    `${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ` +
    `${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}, ${process.platform}`
  );
}

/** The target of one scenario: the given token, or a fresh tenant's Manager token. */
async function targetFor(url: string, options: Options, adminSecret: string | undefined): Promise<Target> {
  if (options.token) return { url, token: options.token };
  if (!adminSecret) throw new Error('no token and no operator secret');
  const tenant = await runFlow(provisionTenant(`Load test ${runId()}`, adminSecret), { url, token: '' });
  return { url, token: tenant.token };
}

async function runAll(
  url: string,
  adminSecret: string | undefined,
  options: Options,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of options.scenarios) {
    const target = await targetFor(url, options, adminSecret);
    const result = await runScenario(scenario, target, {
      seconds: options.seconds,
      iterations: options.iterations,
      connections: options.connections,
    });
    if (!options.json) {
      const said = result.status === 'ran' ? `${result.summary.requests} requests` : result.reason;
      process.stdout.write(`  ${scenario.name}: ${result.status} (${said})\n`);
    }
    results.push(result);
  }
  return results;
}

function print(results: ScenarioResult[]): void {
  const out = [
    '',
    scenarioTable(results),
    '',
    thresholdTable(results),
    '',
    stepTable(results),
    '',
    ...notes(results),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

async function main(): Promise<void> {
  const options = readOptions();
  let platform: LocalPlatform | undefined;
  const say = (line: string) => {
    if (!options.json) process.stdout.write(`${line}\n`);
  };
  say(`fieldops load runner, ${new Date().toISOString()}, ${machine()}`);
  const amount = options.iterations
    ? `${options.iterations} iterations (at most ${options.seconds} s)`
    : `${options.seconds} s`;
  say(`${amount} per scenario, one scenario at a time, each on a fresh tenant`);
  try {
    if (!options.url) platform = await startLocalPlatform();
    const url = options.url ?? platform?.url ?? '';
    say(`platform ${url}${platform ? ` (started here, data in ${platform.dataDir})` : ''}`);
    const results = await runAll(url, options.adminSecret ?? platform?.adminSecret, options);
    if (options.json) process.stdout.write(`${JSON.stringify({ machine: machine(), results }, null, 2)}\n`);
    else print(results);
    const failed = results.some((r) => r.status === 'failed' || (r.status === 'ran' && !r.passed));
    process.exitCode = failed ? 1 : 0;
  } finally {
    await platform?.stop({ keep: options.keep });
    if (platform && options.keep) say(`data and platform log kept in ${platform.dataDir}`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
});
