#!/usr/bin/env node
// `npm run test:cluster`: the HTTP end-to-end suites against the deployed topology. For each group
// of scripts/cluster/suites.mjs (which also says why the other suites run only in process) it
// starts a cluster (scripts/cluster, a temporary data dir, free ports, its own Kafka namespace)
// and runs the group's suites with FIELDOPS_TEST_TARGET=cluster (test/support/harness.ts). A group
// exists for each set of settings suites ask for: a cluster's settings are fixed when it starts,
// and a suite refuses a cluster whose settings differ from what it asks. A group that differs from
// the one before only in the gateway's settings runs on that group's cluster, its gateway alone
// restarted with them (suites.mjs, sharesCluster); the run stops every cluster it started,
// whatever happens. Then the failure tests (test/cluster), which start and break clusters of their
// own. Kafka, S3 and Redis as for `npm run cluster` (KAFKA_BROKERS, S3_*, REDIS_URL, or the
// project's broker and S3 server). `--group <name>` (repeatable) runs only the groups named,
// `--except <name>` (repeatable) every group but those (CI leaves out photogrammetry).
//
// With --containers the groups run against the chart's Deployments as containers
// (scripts/cluster/containers, from the images `npm run image -- build` made), each group's
// settings given to the chart as extraEnv, and the failure tests are test/containers. There a
// group runs the suites its `containers` names (all when absent, none when false; suites.mjs says
// why), the representative set CI's time allows (docs/deploy.md "Suites through the topology").
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { clusterStatus, holdProcess, restartProcess } from './cluster.mjs';
import { startTestCluster } from './test-support.mjs';
import { startTestContainerCluster } from './containers/test-support.mjs';
import { containerSuites, differingSettings, GROUPS, sharesCluster } from './suites.mjs';

const root = resolve(import.meta.dirname, '..', '..');
/** As the harness gives every in-process test platform (GENEROUS_LIMITS in test/support/harness.ts). */
const GENEROUS_LIMITS = {
  FIELDOPS_RATE_READS_PER_MIN: '100000',
  FIELDOPS_RATE_WRITES_PER_MIN: '100000',
  FIELDOPS_BUDGET_COMPUTE: '100000',
  FIELDOPS_TENANT_BUDGET_COMPUTE: '100000',
};

/**
 * The failure tests (test/cluster/*.test.ts): each starts, breaks and stops a cluster of its own,
 * so they run after the groups, one at a time. `npm test` leaves them out (jest.config.js).
 */
const containers = process.argv.includes('--containers');
process.argv = process.argv.filter((arg) => arg !== '--containers');
const FAILURE_TESTS = containers ? 'test/containers/' : 'test/cluster/';

function runJest(paths, env, extraArgs) {
  const args = [
    '--experimental-vm-modules',
    join(root, 'node_modules/jest/bin/jest.js'),
    ...extraArgs,
    ...process.argv.slice(2),
    ...paths,
  ];
  return new Promise((done) => {
    const jest = spawn(process.execPath, args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    jest.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

/** Each service's gRPC address, for suites that play another service's part (harness serviceAddress). */
function serviceAddresses(status) {
  const services = status.processes.filter((p) => p.port && p.kind !== 'gateway');
  return Object.fromEntries(services.map((p) => [p.kind, `127.0.0.1:${p.port}`]));
}

/**
 * A cluster for one group: processes (scripts/cluster), or the chart's containers with the group's
 * settings as extraEnv and, where a setting is a chart value, its containerValues.
 */
async function startGroupCluster(env, workers, values) {
  if (!containers) {
    const { cluster, dataDir, stop } = await startTestCluster({ env, workers });
    const services = serviceAddresses(clusterStatus({ dataDir }));
    // The suites that play another service's part call with the cluster's test certificate.
    const pki = join(dataDir, 'pki');
    return { cluster, dataDir, stop, services, pki, what: `${cluster.processes.length} processes` };
  }
  const { cluster, stop } = await startTestContainerCluster({ env, workers, values });
  const pki = cluster.dataDir ? join(cluster.dataDir, 'pki') : undefined;
  return { cluster, stop, services: cluster.services, pki, what: `${cluster.containers.length} containers` };
}

/**
 * The gateway of a process cluster restarted with `env` where it differs from `before` (a setting
 * `env` lacks is unset): a rollout of the gateway's Deployment with the next group's settings.
 */
async function moveGateway(running, before, env) {
  const changes = Object.fromEntries(differingSettings(before, env).map((k) => [k, env[k] ?? null]));
  await holdProcess({ dataDir: running.dataDir }, 'gateway');
  await restartProcess({ dataDir: running.dataDir }, 'gateway', 0, changes);
}

/** The cluster a group runs on: the last group's when it may share it (suites.mjs), else a new one. */
async function clusterFor(group, last, env) {
  const workers = Number(process.env.FIELDOPS_CLUSTER_WORKERS ?? 2);
  if (last && !containers && sharesCluster(last.group, group)) {
    await moveGateway(last.running, last.env, env);
    return { running: last.running, how: `the cluster of group ${last.group.name}, its gateway restarted` };
  }
  await last?.running.stop();
  const running = await startGroupCluster(env, workers, group.containerValues);
  return { running, how: `a cluster of ${running.what}` };
}

/** Runs one group's suites; answers its exit code and the cluster it leaves running for the next. */
async function runGroup(group, last) {
  const { name, env, suites, oneAtATime } = group;
  const clusterEnv = { ...GENEROUS_LIMITS, ...env };
  const started = Date.now();
  let running;
  let how;
  try {
    ({ running, how } = await clusterFor(group, last, clusterEnv));
  } catch (err) {
    // A cluster that cannot start fails its group, and the run goes on to the next.
    console.error(`the cluster for group ${name} (${suites.join(', ')}) did not start: ${err.message}`);
    await last?.running.stop().catch(() => undefined);
    return { code: 1, next: undefined };
  }
  const { cluster, services, pki } = running;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`group ${name}: ${how} at ${cluster.url} (ready in ${seconds} s) for: ${suites.join(', ')}`);
  const code = await runJest(
    suites.map((suite) => `test/${suite}.http.test.ts`),
    {
      FIELDOPS_TEST_TARGET: 'cluster',
      FIELDOPS_TEST_CLUSTER_URL: cluster.url,
      FIELDOPS_TEST_CLUSTER_ADMIN_SECRET: cluster.adminSecret,
      FIELDOPS_TEST_CLUSTER_ENV: JSON.stringify(clusterEnv),
      FIELDOPS_TEST_CLUSTER_SERVICES: JSON.stringify(services),
      ...(pki ? { FIELDOPS_TEST_CLUSTER_PKI: pki } : {}),
    },
    // Two files at a time: jest loads each file's modules afresh (seconds of CPU in the test
    // process, most of a suite's time against a cluster), so while one file loads, the other
    // talks to the cluster. The suites work in tenants of their own and share the cluster.
    [oneAtATime ? '--runInBand' : '--maxWorkers=2'],
  );
  console.log(
    `group ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s from its start to its suites' end`,
  );
  return { code, next: { group, running, env: clusterEnv } };
}

/** The failure tests start their clusters themselves; the default config leaves test/cluster out. */
const runFailureTests = () =>
  runJest([FAILURE_TESTS], {}, ['--runInBand', '--testPathIgnorePatterns', '/node_modules/', '--verbose']);

// Ctrl-C or a CI timeout: the clusters die with this process (they are started attached).
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

/** Takes every `--flag value` out of process.argv (the rest goes to jest) and answers the values. */
function takeOptions(flag) {
  const values = [];
  for (let i = process.argv.indexOf(flag); i !== -1; i = process.argv.indexOf(flag)) {
    values.push(...process.argv.splice(i, 2).slice(1));
  }
  return values;
}

// --groups-only / --failures-only run one half (a contributor's quicker loop); CI runs both.
const only = process.argv.find((arg) => arg === '--groups-only' || arg === '--failures-only');
process.argv = process.argv.filter((arg) => arg !== only);
// --group <name> (repeatable) runs only those groups; --except <name> (repeatable) all but those.
const named = takeOptions('--group');
const excepted = takeOptions('--except');
const unknown = [...named, ...excepted].filter((name) => !GROUPS.some((group) => group.name === name));
if (unknown.length > 0) {
  console.error(`no group ${unknown.join(', ')}; the groups are ${GROUPS.map((g) => g.name).join(', ')}`);
  process.exit(2);
}
// --suite <name> (repeatable) runs only those suites, each in its group's cluster.
const suites = takeOptions('--suite');
const strangers = suites.filter((suite) => !GROUPS.some((group) => group.suites.includes(suite)));
if (strangers.length > 0) {
  console.error(`no group runs ${strangers.join(', ')} (scripts/cluster/suites.mjs)`);
  process.exit(2);
}
const groups = GROUPS.filter((group) => named.length === 0 || named.includes(group.name))
  .filter((group) => !excepted.includes(group.name))
  .map((group) => ({ ...group, suites: containers ? containerSuites(group) : group.suites }))
  .map((group) => ({
    ...group,
    suites: group.suites.filter((s) => suites.length === 0 || suites.includes(s)),
  }))
  .filter((group) => group.suites.length > 0);
let failed = 0;
const failedGroups = [];
if (only !== '--failures-only') {
  let last;
  try {
    for (const group of groups) {
      const { code, next } = await runGroup(group, last);
      last = next;
      if (code !== 0) failedGroups.push(group.name);
    }
  } finally {
    await last?.running.stop();
  }
  if (failedGroups.length > 0) console.error(`groups that failed: ${failedGroups.join(', ')}`);
  failed += failedGroups.length;
}
if (only !== '--groups-only' && (await runFailureTests()) !== 0) failed += 1;
process.exit(failed > 0 ? 1 : 0);
