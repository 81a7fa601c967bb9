// Clusters for tests: `npm run test:cluster` (test-cluster.mjs) starts one per group of HTTP suites,
// and each failure test (test/cluster) starts its own. Every one gets a temporary data dir, a free
// gateway port and a Kafka namespace of its own, and takes its topics with it when it stops.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../kafka/broker.mjs';
import { deleteNamespaceTopics } from '../kafka/namespace-topics.mjs';
import { startCluster, stopCluster } from './cluster.mjs';

/** S3_* of FIELDOPS_TEST_S3 (the line `npm run s3 -- start` prints; CI exports it) unless S3_* is set. */
export function s3FromTestLine(env = process.env) {
  if (env.S3_BUCKET || !env.FIELDOPS_TEST_S3) return {};
  return Object.fromEntries(
    env.FIELDOPS_TEST_S3.trim()
      .split(/\s+/)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

/** The cluster's topics go with it, as its data dir does. */
const deleteTopics = (brokers, namespace) => deleteNamespaceTopics(brokers.split(','), namespace);

/** @param {{ env?: Record<string, string>, workers?: number, readyTimeoutMs?: number }} options */
export async function startTestCluster({ env = {}, workers = 2, readyTimeoutMs } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldops-cluster-'));
  let kafka;
  // FIELDOPS_TEST_KEEP_DATA=1 keeps the data dir, logs included, to read after a failure.
  const keep = process.env.FIELDOPS_TEST_KEEP_DATA === '1';
  const stop = async () => {
    await stopCluster({ dataDir, removeData: !keep });
    if (keep) console.log(`the cluster's data and logs are kept in ${dataDir}`);
    if (kafka) await deleteTopics(kafka.brokers, kafka.namespace).catch(() => {});
  };
  try {
    const cluster = await startCluster({
      dataDir,
      port: await freePort(),
      env: { ...s3FromTestLine(), ...env },
      workers,
      ...(readyTimeoutMs ? { readyTimeoutMs } : {}),
    });
    kafka = cluster.kafka;
    return { cluster, dataDir, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
