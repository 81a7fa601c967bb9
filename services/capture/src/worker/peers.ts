// The services a separate worker process dials, from its environment. A worker holds no store, so
// without capture's address it could not claim a single run: a missing address stops the process
// at start with a ConfigError naming every one, rather than failing on the first job.
import { ConfigError } from '@fieldops/kit';

const PEERS = {
  FIELDOPS_CAPTURE_ADDR:
    "capture's gRPC address: workers claim, renew and complete runs there (they hold no store)",
  FIELDOPS_MEASUREMENTS_ADDR: 'the measurements gRPC address: workers record measured quantities there',
} as const;

export interface WorkerPeers {
  /** host:port of capture's gRPC server (RunLeaseService). */
  capture: string;
  /** host:port of the measurements gRPC server (RecordQuantities). */
  measurements: string;
}

export function workerPeersFromEnv(env: NodeJS.ProcessEnv = process.env): WorkerPeers {
  const missing = (Object.keys(PEERS) as (keyof typeof PEERS)[]).filter((name) => !env[name]);
  if (missing.length) throw new ConfigError(missing.map((name) => `${name} is required: ${PEERS[name]}.`));
  return { capture: env['FIELDOPS_CAPTURE_ADDR']!, measurements: env['FIELDOPS_MEASUREMENTS_ADDR']! };
}
