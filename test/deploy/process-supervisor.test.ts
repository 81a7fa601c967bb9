// The process topology's supervisor (scripts/cluster/process-supervisor.mjs) on a small real
// process: a node script serving /healthz and /readyz on its ops port. SIGKILLed, it is started
// again by the supervisor after its back-off and probed ready; held, it is ended and kept down
// until the hold is lifted, and then started with the environment changes left beside its hold;
// a process refusing to start is restarted with growing waits.
import { existsSync, mkdtempSync, rmSync, unlinkSync, writeFileSync, readFileSync } from 'node:fs';
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
// Answers its own GREETING and FAREWELL, so a test sees the environment it was started with.
const ENV_SERVER = join(dir, 'env.mjs');
writeFileSync(
  ENV_SERVER,
  `import { createServer } from 'node:http';
const seen = JSON.stringify({ greeting: process.env.GREETING, farewell: process.env.FAREWELL });
createServer((req, res) => { res.writeHead(200); res.end(seen); }).listen(Number(process.env.OPS_PORT), '127.0.0.1');
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

async function supervise(
  name: string,
  script: string,
  env: Record<string, string> = {},
): Promise<{ status: () => UnitStatus; opsPort: number }> {
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
        env: { ...process.env, ...env, OPS_PORT: String(opsPort) },
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
  return { status, opsPort };
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

  it('starts a held process with the environment changes left beside its hold, and keeps them', async () => {
    const { status, opsPort } = await supervise('env', ENV_SERVER, { GREETING: 'hello', FAREWELL: 'bye' });
    const seen = async () => (await fetch(`http://127.0.0.1:${opsPort}/`)).json();
    const first = await eventually(async () => (status().ready ? status() : undefined), 60_000);
    expect(await seen()).toEqual({ greeting: 'hello', farewell: 'bye' });

    const hold = join(dir, 'env-holds', 'env');
    writeFileSync(hold, '');
    await eventually(async () => (status().state === 'held' ? true : undefined), 60_000);
    writeFileSync(`${hold}.env.json`, JSON.stringify({ GREETING: 'hi', FAREWELL: null }));
    unlinkSync(hold);
    const moved = await eventually(async () => (status().ready ? status() : undefined), 60_000);
    expect(moved.pid).not.toBe(first.pid);
    expect(await seen()).toEqual({ greeting: 'hi' });
    expect(existsSync(`${hold}.env.json`)).toBe(false);

    // A crash after it restarts with the changed environment too.
    expect(killTree({ pid: moved.pid!, startTicks: moved.startTicks!, script: moved.script })).toBe(true);
    await eventually(async () => {
      const now = status();
      return now.ready && now.restarts === moved.restarts + 1 ? now : undefined;
    }, 60_000);
    expect(await seen()).toEqual({ greeting: 'hi' });
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
