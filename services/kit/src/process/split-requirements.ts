// What a service needs to run as its own process (one Deployment per service). Some embedded
// adapters are made for `npm start`, where every service shares one process; split apart, each of
// them would silently give every process its own world (the event log, fast state, a generated
// operator secret). So a split process refuses to start without the shared one instead, and says
// why. The store is different: each service owns its collections, so the embedded store in
// <FIELDOPS_DATA_DIR>/<service> is a correct store for one replica (the directory lock refuses a
// second), and no entry point needs MONGODB_URI to start; only replicas and rescheduling do.
import type { Config } from '../config.ts';

export type Requirement = 'kafkaBrokers' | 'mongodbUri' | 'redisUrl' | 'adminSecret';

interface RequirementText {
  variable: string;
  why: string;
}

const REQUIREMENTS: Record<Requirement, RequirementText> = {
  kafkaBrokers: {
    variable: 'KAFKA_BROKERS',
    why: 'the embedded event log lives inside one process, so the events this process writes would never reach the processes that consume them (audit, webhooks, workers)',
  },
  mongodbUri: {
    variable: 'MONGODB_URI',
    why: "the embedded store keeps its data on this pod's own disk, so every replica would see different data and a rescheduled pod would lose it",
  },
  redisUrl: {
    variable: 'REDIS_URL',
    why: 'rate buckets, budgets, idempotency locks and confirmation tokens must be shared by every gateway replica',
  },
  adminSecret: {
    variable: 'FIELDOPS_ADMIN_SECRET',
    why: 'a generated operator secret would differ on every replica and change on every restart',
  },
};

/** The configuration once the requirements are known to be met: those fields are set. */
export type ConfigWith<N extends Requirement> = Config & { [K in N]-?: NonNullable<Config[K]> };

export class SplitRequirementError extends Error {
  readonly process: string;
  readonly missing: readonly Requirement[];
  constructor(process: string, missing: readonly Requirement[]) {
    const lines = missing.map(
      (name) => `  ${REQUIREMENTS[name].variable} is not set: ${REQUIREMENTS[name].why}.`,
    );
    super(
      [
        `fieldops ${process} cannot run as its own process:`,
        ...lines,
        'Set them (docs/deploy.md), or run every service in one process with `npm start`.',
      ].join('\n'),
    );
    this.process = process;
    this.missing = missing;
    this.name = 'SplitRequirementError';
  }
}

/** The variable that provides a requirement, for docs and messages. */
export function requirementVariable(name: Requirement): string {
  return REQUIREMENTS[name].variable;
}

/** Returns the configuration typed with the requirements met, or throws naming every one missing. */
export function requireSplitAdapters<N extends Requirement>(
  process: string,
  config: Config,
  needs: readonly N[],
): ConfigWith<N> {
  const missing = needs.filter((name) => {
    const value = config[name];
    return value === undefined || (Array.isArray(value) && value.length === 0);
  });
  if (missing.length > 0) throw new SplitRequirementError(process, missing);
  return config as ConfigWith<N>;
}
