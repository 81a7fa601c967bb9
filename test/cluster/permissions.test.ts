// The fence holds in the deployed topology: every process runs under node --permission with its
// kind's grants (charts/fieldops/topology.yaml, scripts/permissions.mjs), and Node refuses the rest.
// Each check runs a probe (test/support/fence-probe.mjs) as that very process runs: the node flags
// read from its command line (/proc/<pid>/cmdline), its environment, only the entry point swapped for
// the probe. So what is tested is what the running process holds, not what the table says it
// should: the gateway cannot start a program or write outside its data folders, measurements
// cannot write outside its own, a capture worker can start its engine; and nothing any process did
// meanwhile was refused (every refusal is a log line: permission-denials.ts).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { colmapAnswers } from '@fieldops/capture';
import { clusterStatus } from '../../scripts/cluster/cluster.mjs';
import { clusterOfFile, refusalsLogged } from '../support/cluster.ts';

const cluster = clusterOfFile('Fence Co', { workers: 1 });
const PROBE = join(import.meta.dirname, '..', 'support', 'fence-probe.mjs');
const COLMAP = process.env['FIELDOPS_COLMAP_BIN']?.trim() || 'colmap';

type Action = { write: string } | { spawn: string; args?: string[] };
interface Outcome {
  ok: boolean;
  code?: string;
  permission?: string;
  resource?: string;
  status?: number;
  stdout?: string;
}

function processOf(name: string) {
  const status = clusterStatus({ dataDir: cluster.dataDir })!;
  const found = status.processes.find((p) => p.name === name);
  if (!found?.command || found.state !== 'running') throw new Error(`${name} is not running`);
  return found as typeof found & { command: string[]; pid: number };
}

/** The probe, started as `name` runs: its node, flags and environment, the probe for its bundle. */
function asProcess(name: string, actions: Action[]): Outcome[] {
  const { command, pid } = processOf(name);
  const [node, ...args] = command;
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  const env = Object.fromEntries(
    environ.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  const flags = args.slice(0, -1);
  const out = execFileSync(node!, [...flags, PROBE, JSON.stringify(actions)], { env, encoding: 'utf8' });
  return JSON.parse(out) as Outcome[];
}

const refused = (permission: string, resource: string) => ({
  ok: false,
  code: 'ERR_ACCESS_DENIED',
  permission,
  resource,
});

describe('node --permission in the running topology', () => {
  it('runs every process under --permission, and only the capture worker may start programs', () => {
    const status = clusterStatus({ dataDir: cluster.dataDir })!;
    for (const p of status.processes) {
      expect({ name: p.name, fenced: p.command?.includes('--permission') }).toEqual({
        name: p.name,
        fenced: true,
      });
    }
    const spawners = status.processes.filter((p) => p.command!.includes('--allow-child-process'));
    expect(spawners.map((p) => p.kind)).toEqual(['capture-worker']);
  });

  it('lets the gateway write its own stores, and nothing else: no program, no other folder', () => {
    const data = cluster.dataDir;
    const outcomes = asProcess('gateway', [
      { write: join(data, 'gateway', 'fence-probe.txt') },
      { spawn: 'true' },
      { write: join(data, 'fence-probe.txt') },
      { write: join(data, 'crm', 'fence-probe.txt') },
      { write: join(tmpdir(), 'fieldops-fence-probe.txt') },
      { write: join(data, 'gateway-outside', 'fence-probe.txt') },
    ]);
    expect(outcomes).toEqual([
      { ok: true },
      refused('ChildProcess', 'true'),
      refused('FileSystemWrite', join(data, 'fence-probe.txt')),
      refused('FileSystemWrite', join(data, 'crm', 'fence-probe.txt')),
      refused('FileSystemWrite', join(tmpdir(), 'fieldops-fence-probe.txt')),
      refused('FileSystemWrite', join(data, 'gateway-outside', 'fence-probe.txt')),
    ]);
  });

  it('lets measurements write its own space, and nowhere else', () => {
    const data = cluster.dataDir;
    const outcomes = asProcess('measurements', [
      { write: join(data, 'measurements', 'fence-probe.txt') },
      { write: join(data, 'scratch', 'fence-probe.txt') },
      { write: join(data, 'projects', 'fence-probe.txt') },
      { write: join(tmpdir(), 'fieldops-fence-probe.txt') },
      { spawn: 'true' },
    ]);
    expect(outcomes).toEqual([
      { ok: true },
      refused('FileSystemWrite', join(data, 'scratch', 'fence-probe.txt')),
      refused('FileSystemWrite', join(data, 'projects', 'fence-probe.txt')),
      refused('FileSystemWrite', join(tmpdir(), 'fieldops-fence-probe.txt')),
      refused('ChildProcess', 'true'),
    ]);
  });

  it('lets a capture worker start its engine and write its scratch space, and no store', () => {
    const data = cluster.dataDir;
    const scratch = join(data, 'scratch', 'capture-worker-1');
    const outcomes = asProcess('capture-worker-1', [
      { spawn: COLMAP, args: ['help'] },
      { write: join(scratch, 'fence-probe.txt') },
      { write: join(data, 'capture', 'fence-probe.txt') },
    ]);
    expect(outcomes[0]).toEqual(expect.objectContaining({ ok: true }));
    if (colmapAnswers(COLMAP))
      expect(outcomes[0]).toEqual(
        expect.objectContaining({ status: 0, stdout: expect.stringContaining('COLMAP') }),
      );
    expect(outcomes.slice(1)).toEqual([
      { ok: true },
      refused('FileSystemWrite', join(data, 'capture', 'fence-probe.txt')),
    ]);
  });

  it('logged no refusal from any process of the cluster while it started and served', () => {
    expect(refusalsLogged(cluster.test.cluster.processes.map((p) => p.log))).toEqual([]);
  });
});
