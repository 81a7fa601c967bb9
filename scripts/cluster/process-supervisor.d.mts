// Types of process-supervisor.mjs for the tests that run it directly.
export interface UnitSpec {
  name: string;
  kind: string;
  index: number;
  /** The script node runs (a kind's entry source). */
  script: string;
  nodeArgs: string[];
  env: Record<string, string | undefined>;
  log: string;
  cwd: string;
  /** Where its probes ask (/healthz, /readyz). */
  opsPort: number;
  scratchDir?: string;
}

export interface SupervisorPlan {
  statusFile: string;
  holdsDir: string;
  units: UnitSpec[];
  backoff?: { startMs: number; maxMs: number; resetAfterMs: number };
  parentPid?: number;
}

export class ProcessSupervisor {
  constructor(plan: SupervisorPlan);
  start(): Promise<void>;
  stop(): Promise<void>;
  killAll(): void;
}
