#!/usr/bin/env node
// `npm run test:cluster`: the HTTP end-to-end suites against the deployed topology. For each group
// below it starts a cluster of its own (scripts/cluster, a temporary data dir, free ports, its own
// Kafka namespace), runs the group's suites with FIELDOPS_TEST_TARGET=cluster (test/support/
// harness.ts), and stops it, whatever happens. A group exists for each set of settings suites ask
// for: a cluster's settings are fixed when it starts, and a suite refuses a cluster whose settings
// differ from what it asks. Kafka, S3 and Redis as for `npm run cluster` (KAFKA_BROKERS, S3_*,
// REDIS_URL, or the project's broker and S3 server).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { freePort } from '../kafka/broker.mjs';
import { startCluster, stopCluster } from './cluster.mjs';

const root = resolve(import.meta.dirname, '..', '..');
/** As the harness gives every in-process test platform (GENEROUS_LIMITS in test/support/harness.ts). */
const GENEROUS_LIMITS = { FIELDOPS_RATE_READS_PER_MIN: '100000', FIELDOPS_RATE_WRITES_PER_MIN: '100000' };

const GROUPS = [
  {
    env: {},
    suites: [
      'leads',
      'deals',
      'lead-convert',
      'project-read',
      'bookings',
      'schedule',
      'designs',
      'audit',
      'changes',
      'capture',
      'scenes',
    ],
  },
  // Each counts on a budget of its own (consequences per token and hour).
  { env: { FIELDOPS_BUDGET_COMPUTE: '10' }, suites: ['exports'] },
  { env: { FIELDOPS_BUDGET_EMAILS: '5' }, suites: ['proposals'] },
  { env: { FIELDOPS_BUDGET_EMAILS: '3' }, suites: ['invoices'] },
  // Not here: customers, projects and project-lifecycle read the in-process platform's stores
  // (platform.running), so they run only on `npm start`'s platform.
];

function runJest(suites, env) {
  const args = [
    '--experimental-vm-modules',
    join(root, 'node_modules/jest/bin/jest.js'),
    '--runInBand',
    ...process.argv.slice(2),
    ...suites.map((suite) => `test/${suite}.http.test.ts`),
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

/** The cluster's topics go with it, as its data dir does. */
async function deleteTopics(brokers, namespace) {
  const admin = new Kafka({
    clientId: 'fieldops-test-cluster',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(`${namespace}.`));
    if (topics.length > 0) await admin.deleteTopics({ topics });
  } finally {
    await admin.disconnect();
  }
}

async function runGroup({ env, suites }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldops-cluster-'));
  const clusterEnv = { ...GENEROUS_LIMITS, ...env };
  const workers = Number(process.env.FIELDOPS_CLUSTER_WORKERS ?? 2);
  let cluster;
  try {
    cluster = await startCluster({ dataDir, port: await freePort(), env: clusterEnv, workers });
    console.log(
      `cluster of ${cluster.processes.length} processes at ${cluster.url} for: ${suites.join(', ')}`,
    );
    return await runJest(suites, {
      FIELDOPS_TEST_TARGET: 'cluster',
      FIELDOPS_TEST_CLUSTER_URL: cluster.url,
      FIELDOPS_TEST_CLUSTER_ADMIN_SECRET: cluster.adminSecret,
      FIELDOPS_TEST_CLUSTER_ENV: JSON.stringify(clusterEnv),
    });
  } finally {
    await stopCluster({ dataDir, removeData: true });
    if (cluster) await deleteTopics(cluster.kafka.brokers, cluster.kafka.namespace).catch(() => {});
  }
}

// Ctrl-C or a CI timeout: the clusters die with this process (they are started attached).
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

let failed = 0;
for (const group of GROUPS) if ((await runGroup(group)) !== 0) failed += 1;
process.exit(failed > 0 ? 1 : 0);
