// The process topology's supervisor (scripts/cluster/process-supervisor.mjs) on a small real
// process: a node script serving /healthz and /readyz on its ops port. SIGKILLed, it is started
// again by the supervisor after its back-off and probed ready; held, it is ended and kept down
// until the hold is lifted; a process refusing to start is restarted with growing waits.
import { mkdtempSync, rmSync, unlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { freePort } from '../../scripts/kafka/broker.mjs';
import { ProcessSupervisor } from '../../scripts/cluster/process-supervisor.mjs';
import { killTree } from '../../scripts/cluster/processes.mjs';
import { backoffDelay, KUBELET_BACKOFF } from '../../scripts/cluster/supervision.mjs';
import { eventually } from '../support/harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'fieldops-supervisor-'));
const SERVER = join(dir, 'ops.mjs');
writeFileSync(
  SERVER,
  `import { createServer } from 'node:http';
createServer((req, res) => { res.writeHead(200); res.end('ok'); }).listen(Number(process.env.OPS_PORT), '127.0.0.1');
`,
);
const FAILING = join(dir, 'fails.mjs');
writeFileSync(FAILING, 'process.exit(3);\n');

interface UnitStatus {
  name: string;
  state: string;
  ready: boolean;
  restarts: number;
  pid?: number;
  startTicks?: string;
  script: string;
  lastExit?: { code: number };
}

const supervisors: ProcessSupervisor[] = [];
afterAll(async () => {
  await Promise.all(supervisors.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function supervise(name: string, script: string): Promise<{ status: () => UnitStatus }> {
  const opsPort = await freePort();
  const statusFile = join(dir, `${name}.json`);
  const supervisor = new ProcessSupervisor({
    statusFile,
    holdsDir: join(dir, `${name}-holds`),
    units: [
      {
        name,
        kind: name,
        index: 0,
        script,
        nodeArgs: [],
        env: { ...process.env, OPS_PORT: String(opsPort) },
        log: join(dir, `${name}.log`),
        cwd: dir,
        opsPort,
      },
    ],
    backoff: { startMs: 200, maxMs: 5_000, resetAfterMs: 600_000 },
  });
  supervisors.push(supervisor);
  await supervisor.start();
  const status = () =>
    (JSON.parse(readFileSync(statusFile, 'utf8')) as { processes: UnitStatus[] }).processes[0]!;
  return { status };
}

describe('the process supervisor', () => {
  it('starts a SIGKILLed process again and takes it back once its readiness probe passes', async () => {
    const { status } = await supervise('ops', SERVER);
    const first = await eventually(async () => (status().ready ? status() : undefined), 60_000);
    expect(first).toMatchObject({ state: 'running', restarts: 0 });
    expect(killTree({ pid: first.pid!, startTicks: first.startTicks!, script: first.script })).toBe(true);
    const again = await eventually(async () => {
      const now = status();
      return now.ready && now.restarts === 1 ? now : undefined;
    }, 60_000);
    expect(again.pid).not.toBe(first.pid);
    expect(again.lastExit?.code).toBe(137);

    // Held: ended and kept down; the hold lifted: started again.
    writeFileSync(join(dir, 'ops-holds', 'ops'), '');
    await eventually(async () => (status().state === 'held' ? true : undefined), 60_000);
    unlinkSync(join(dir, 'ops-holds', 'ops'));
    const back = await eventually(async () => (status().ready ? status() : undefined), 60_000);
    expect(back.restarts).toBe(2);
  }, 120_000);

  it('restarts a process that keeps exiting, in CrashLoopBackOff', async () => {
    const { status } = await supervise('fails', FAILING);
    const looping = await eventually(async () => (status().restarts >= 2 ? status() : undefined), 60_000);
    expect(looping.lastExit?.code).toBe(3);
    expect(looping.ready).toBe(false);
  }, 120_000);

  it('waits as the kubelet does between restarts: 10 s doubling, capped at 5 min', () => {
    expect([1, 2, 3, 6, 20].map((crashes) => backoffDelay(crashes, KUBELET_BACKOFF))).toEqual([
      10_000, 20_000, 40_000, 300_000, 300_000,
    ]);
  });
});
