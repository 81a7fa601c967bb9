// The chart as this machine runs it: `helm template` (the project's helm) of charts/fieldops with
// machine-values.yaml and the run's own values (where Kafka, S3 and Redis answer, the image tag,
// the credentials, the settings a caller asks for). containers.mjs runs what this renders, and
// test/deploy/containers.test.ts reads the same render.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { URL } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { ensureHelm } from '../../helm.mjs';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '..', '..', '..');
const CHART = join(root, 'charts', 'fieldops');
export const MACHINE_VALUES = join(import.meta.dirname, 'machine-values.yaml');
/** The release name: the chart then names its objects fieldops-<component>. */
export const RELEASE = 'fieldops';
/** Names the chart's values give the data services outside the release, resolved in every container. */
export const DATA_HOSTS = {
  kafka: 'kafka.fieldops-data',
  s3: 's3.fieldops-data',
  redis: 'redis.fieldops-data',
};

/**
 * The run's own values: where Kafka, S3 and Redis answer, the tag, the credentials, the internal
 * certificates and context keys (`pki`: host-services.mjs pkiValues), extra env, and the prefix
 * of the release's Redis keys.
 */
export function runValues({ tag, kafkaPort, s3Env, adminSecret, pki, extraEnv, workers, redisNamespace }) {
  const s3Port = new URL(s3Env.S3_ENDPOINT).port;
  return {
    image: { tag },
    workerImage: { tag },
    config: {
      kafkaBrokers: `${DATA_HOSTS.kafka}:${kafkaPort}`,
      // The machine's Redis is shared with other runs; this release's keys are its own.
      redisNamespace,
      s3: {
        bucket: s3Env.S3_BUCKET,
        endpoint: `http://${DATA_HOSTS.s3}:${s3Port}`,
        // Where this machine's clients (the tests, a drone app here) reach the same server.
        publicEndpoint: s3Env.S3_ENDPOINT,
      },
    },
    secrets: {
      redisUrl: `redis://${DATA_HOSTS.redis}:6379`,
      adminSecret,
      s3AccessKeyId: s3Env.S3_ACCESS_KEY_ID,
      s3SecretAccessKey: s3Env.S3_SECRET_ACCESS_KEY,
      contextPublicKey: pki.contextPublicKey,
      contextSigningKey: pki.contextSigningKey,
    },
    internalTls: { certificates: pki.certificates },
    captureWorkers: { replicas: workers },
    // The settings a test group or the caller asks for, as an operator would give them.
    extraEnv: Object.entries(extraEnv).map(([name, value]) => ({ name, value: String(value) })),
  };
}

/**
 * A values file's text. JSON, which is YAML too, because every string in it is quoted: helm reads
 * YAML 1.1, where a bare `off`, `no` or `on` (FIELDOPS_COLMAP_BIN=off) would be a boolean.
 */
export const valuesText = (values) => `${JSON.stringify(values, null, 2)}\n`;

/** `helm template` of the chart with this machine's values and the run's; every object rendered. */
export async function renderChart(valuesFiles) {
  const helm = await ensureHelm();
  const args = ['template', RELEASE, CHART, ...valuesFiles.flatMap((f) => ['-f', f])];
  const { stdout } = await run(helm, args, { maxBuffer: 32 * 1024 * 1024 });
  return {
    text: stdout,
    manifests: parseAllDocuments(stdout)
      .map((doc) => doc.toJS())
      .filter(Boolean),
  };
}
