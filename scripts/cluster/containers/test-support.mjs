// Containerized clusters for tests: `npm run test:cluster -- --containers` starts one per group of
// HTTP suites, and each test of test/containers starts its own. Every one gets a temporary data
// dir (its pods' volumes, logs, its own Kafka broker) and a container network of its own, and
// takes all of it with it when it stops. S3 and Redis as for `npm run cluster` (FIELDOPS_TEST_S3
// or S3_*, REDIS_URL).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { s3FromTestLine } from '../test-support.mjs';
import { startContainerCluster, stopContainerCluster } from './containers.mjs';
import { valuesText } from './render.mjs';

/** @param {import('./test-support.d.mts').TestContainerClusterOptions} options */
export async function startTestContainerCluster({ env = {}, workers = 2, values, readyTimeoutMs } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldops-containers-'));
  const valuesFiles = [];
  if (values) {
    valuesFiles.push(join(dataDir, 'test-values.yaml'));
    writeFileSync(valuesFiles[0], valuesText(values));
  }
  const stop = () => stopContainerCluster({ dataDir, removeData: true });
  try {
    const cluster = await startContainerCluster({
      dataDir,
      // The host's services only; the containers get `env` through the chart (extraEnv).
      hostEnv: { ...process.env, ...s3FromTestLine() },
      env,
      workers,
      valuesFiles,
      ...(readyTimeoutMs ? { readyTimeoutMs } : {}),
    });
    return { cluster, dataDir, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
