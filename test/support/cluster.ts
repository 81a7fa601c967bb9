// What the failure tests (test/cluster) share: a cluster of their own for the file, started in
// beforeAll and stopped in afterAll, with a tenant and its Manager token. The cluster is real:
// every process kind of the topology as its own OS process (scripts/cluster), on the Kafka broker,
// S3 server and Redis of the run (KAFKA_BROKERS, FIELDOPS_TEST_S3 or S3_*, REDIS_URL).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll } from '@jest/globals';
import { startTestCluster, type TestCluster } from '../../scripts/cluster/test-support.mjs';
import { GENEROUS_LIMITS } from './harness.ts';
import { newTenant } from './keyed-writes.ts';

/** Ten processes starting on two loaded cores, and a stop that may wait for each to drain. */
export const START_TIMEOUT_MS = 300_000;
export const STOP_TIMEOUT_MS = 120_000;

export interface ClusterOfFile {
  readonly test: TestCluster;
  readonly url: string;
  readonly dataDir: string;
  /** A Manager token of the file's tenant. */
  readonly token: string;
}

/**
 * Registers the file's cluster: started before its tests (a cluster that cannot start fails them),
 * stopped after, whatever happened; the processes also die with the jest worker if it is killed.
 */
export function clusterOfFile(
  tenantName: string,
  options: { env?: Record<string, string>; workers?: number } = {},
): ClusterOfFile {
  const state: { test?: TestCluster; token?: string } = {};
  beforeAll(async () => {
    state.test = await startTestCluster({
      env: { ...GENEROUS_LIMITS, ...options.env },
      workers: options.workers ?? 1,
    });
    const { cluster } = state.test;
    state.token = await newTenant({ url: cluster.url }, tenantName, cluster.adminSecret);
  }, START_TIMEOUT_MS);
  afterAll(() => state.test?.stop(), STOP_TIMEOUT_MS);
  const started = (): TestCluster => {
    if (!state.test) throw new Error('the cluster of this file did not start');
    return state.test;
  };
  return {
    get test() {
      return started();
    },
    get url() {
      return started().cluster.url;
    },
    get dataDir() {
      return started().dataDir;
    },
    get token() {
      return state.token ?? '';
    },
  };
}

/**
 * Every `permission denied` line in these logs (services/kit/src/files/permission-denials.ts):
 * what the runtime refused a process of the cluster, as `<kind>: <permission> <resource>`.
 */
export function refusalsLogged(logs: string[]): string[] {
  return logs.flatMap((log) =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"msg":"permission denied"'))
      .map((line) => {
        const { kind, permission, resource } = JSON.parse(line) as Record<string, string>;
        return `${kind}: ${permission} ${resource ?? ''}`.trim();
      }),
  );
}
