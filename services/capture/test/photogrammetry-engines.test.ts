// Which photogrammetry engines exist, decided in one place for capture and its workers
// (photogrammetry-engines.ts): FIELDOPS_PHOTOGRAMMETRY_ENGINES when set, taken as it is by capture
// (no look at its own machine) and required of a process that runs the engines; unset, each process
// looks at its own machine as before. COLMAP here is a stand-in script that answers `colmap help`
// as COLMAP does and notes each time it is run, so the tests say nothing about this machine's COLMAP
// and can see whether a process looked for one. The entry points' refusals are run for real at the end.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ConfigError } from '@fieldops/kit';
import { EXIT_CONFIG } from '@fieldops/kit/process';
import { photogrammetryEnginesFromEnv } from '../src/photogrammetry-engines.ts';
import { captureSettingsFromEnv } from '../src/settings.ts';
import { enginesFor } from '../src/worker/engines.ts';

const dir = mkdtempSync(join(tmpdir(), 'fieldops-engines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const runs = join(dir, 'colmap-runs');
/** A binary that answers `help` as COLMAP does, noting each run in `runs`. */
const COLMAP = join(dir, 'colmap');
writeFileSync(
  COLMAP,
  `#!/bin/sh\necho "$@" >> "${runs}"\necho "COLMAP 3.9 -- Structure-from-Motion and Multi-View Stereo"\n`,
);
chmodSync(COLMAP, 0o755);
const NOWHERE = join(dir, 'no-such-colmap');
const NODEODM = 'http://nodeodm.fieldops.svc:3000';

const colmapWasRun = () => existsSync(runs) && readFileSync(runs, 'utf8').length > 0;
const forgetRuns = () => rmSync(runs, { force: true });

const CAPTURE = { runsEngines: false };
const WORKER = { runsEngines: true };

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a ConfigError');
}

describe('FIELDOPS_PHOTOGRAMMETRY_ENGINES unset: each process looks at its own machine, as before', () => {
  it('has COLMAP when its binary answers, and NodeODM when its URL is set', () => {
    for (const role of [CAPTURE, WORKER]) {
      expect(
        photogrammetryEnginesFromEnv({ FIELDOPS_COLMAP_BIN: COLMAP, FIELDOPS_COLMAP_THREADS: '3' }, role),
      ).toEqual({ available: { colmap: true, nodeodm: false }, colmap: { bin: COLMAP, threads: 3 } });
      expect(
        photogrammetryEnginesFromEnv({ FIELDOPS_COLMAP_BIN: 'off', FIELDOPS_NODEODM_URL: NODEODM }, role),
      ).toEqual({ available: { colmap: false, nodeodm: true }, nodeOdmUrl: NODEODM });
    }
  });

  it('refuses a named binary that does not run as COLMAP, as before', () => {
    expect(refusal(() => photogrammetryEnginesFromEnv({ FIELDOPS_COLMAP_BIN: NOWHERE }, CAPTURE))).toContain(
      `FIELDOPS_COLMAP_BIN is "${NOWHERE}" but it does not run as COLMAP`,
    );
  });
});

describe('FIELDOPS_PHOTOGRAMMETRY_ENGINES set', () => {
  it('is what capture accepts, exactly, without looking for COLMAP on its own machine', () => {
    forgetRuns();
    const env = { FIELDOPS_COLMAP_BIN: COLMAP, FIELDOPS_NODEODM_URL: NODEODM };
    const available = (list: string) =>
      photogrammetryEnginesFromEnv({ ...env, FIELDOPS_PHOTOGRAMMETRY_ENGINES: list }, CAPTURE).available;
    expect(available('colmap')).toEqual({ colmap: true, nodeodm: false });
    expect(available('nodeodm')).toEqual({ colmap: false, nodeodm: true });
    expect(available(' NodeODM , colmap ')).toEqual({ colmap: true, nodeodm: true });
    expect(available('none')).toEqual({ colmap: false, nodeodm: false });
    expect(colmapWasRun()).toBe(false);
    // The capture pod has no COLMAP: a binary pointing nowhere changes nothing there.
    expect(
      photogrammetryEnginesFromEnv(
        { FIELDOPS_PHOTOGRAMMETRY_ENGINES: 'colmap', FIELDOPS_COLMAP_BIN: NOWHERE },
        CAPTURE,
      ),
    ).toEqual({ available: { colmap: true, nodeodm: false } });
  });

  it('gives a worker exactly the engines listed, each one it can run', () => {
    const env = { FIELDOPS_COLMAP_BIN: COLMAP, FIELDOPS_NODEODM_URL: NODEODM };
    const worker = (list: string) =>
      captureSettingsFromEnv({ ...env, FIELDOPS_PHOTOGRAMMETRY_ENGINES: list }, WORKER);
    const built = (list: string) => Object.keys(enginesFor(worker(list))).sort();
    expect(built('colmap')).toEqual(['builtin', 'colmap']);
    expect(built('nodeodm')).toEqual(['builtin', 'nodeodm']);
    expect(built('colmap,nodeodm')).toEqual(['builtin', 'colmap', 'nodeodm']);
    // Installed and configured, but not listed: not an engine anywhere.
    expect(built('none')).toEqual(['builtin']);
    expect(worker('colmap')).toMatchObject({
      engines: { colmap: true, nodeodm: false },
      colmap: { bin: COLMAP, threads: 2 },
      nodeOdmUrl: undefined,
    });
  });

  it('stops a worker that lists colmap and cannot run it, naming both variables', () => {
    for (const bin of [NOWHERE, 'off']) {
      const message = refusal(() =>
        photogrammetryEnginesFromEnv(
          { FIELDOPS_PHOTOGRAMMETRY_ENGINES: 'colmap', FIELDOPS_COLMAP_BIN: bin },
          WORKER,
        ),
      );
      expect(message).toContain(
        `FIELDOPS_PHOTOGRAMMETRY_ENGINES lists colmap, but FIELDOPS_COLMAP_BIN is "${bin}"`,
      );
      expect(message).toContain('install COLMAP here');
    }
  });

  it('stops capture and workers alike when nodeodm is listed without FIELDOPS_NODEODM_URL', () => {
    for (const role of [CAPTURE, WORKER]) {
      expect(
        refusal(() => photogrammetryEnginesFromEnv({ FIELDOPS_PHOTOGRAMMETRY_ENGINES: 'nodeodm' }, role)),
      ).toContain('FIELDOPS_PHOTOGRAMMETRY_ENGINES lists nodeodm, but FIELDOPS_NODEODM_URL is not set');
    }
  });

  it.each(['odm', 'none,colmap', 'colmap;nodeodm', 'colmap,'])('refuses %p, naming the variable', (list) => {
    expect(
      refusal(() => photogrammetryEnginesFromEnv({ FIELDOPS_PHOTOGRAMMETRY_ENGINES: list }, CAPTURE)),
    ).toContain(
      `FIELDOPS_PHOTOGRAMMETRY_ENGINES must be a comma-separated list of colmap and nodeodm, or none alone (got "${list}")`,
    );
  });
});

const root = join(import.meta.dirname, '..', '..', '..');
const run = promisify(execFile);

/**
 * Runs an entry point with only the given environment; resolves with its exit code and stderr.
 * Loading an entry point's import graph takes seconds on a loaded 2-core machine; the kill after
 * 90 s only guards against a hang (test/deploy/service-process.test.ts waits as long).
 */
const ENTRY_POINT_TEST_MS = 120_000;

async function runEntryPoint(path: string, env: Record<string, string>) {
  try {
    await run(process.execPath, [path], {
      cwd: root,
      env: { PATH: process.env.PATH, KAFKA_BROKERS: 'kafka-0.kafka:9092', FIELDOPS_OPS_PORT: '0', ...env },
      timeout: 90_000,
    });
    return { code: 0, stderr: '' };
  } catch (err) {
    const failed = err as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('the entry points', () => {
  it(
    'stop the worker process that lists colmap where COLMAP does not run, and capture where nodeodm has no URL',
    async () => {
      const [worker, capture] = await Promise.all([
        runEntryPoint('services/capture/src/worker/main.ts', {
          FIELDOPS_PHOTOGRAMMETRY_ENGINES: 'colmap',
          FIELDOPS_COLMAP_BIN: NOWHERE,
        }),
        runEntryPoint('services/capture/src/main.ts', { FIELDOPS_PHOTOGRAMMETRY_ENGINES: 'nodeodm' }),
      ]);
      expect(worker.code).toBe(EXIT_CONFIG);
      expect(worker.stderr).toContain(
        `FIELDOPS_PHOTOGRAMMETRY_ENGINES lists colmap, but FIELDOPS_COLMAP_BIN is "${NOWHERE}"`,
      );
      expect(capture.code).toBe(EXIT_CONFIG);
      expect(capture.stderr).toContain(
        'FIELDOPS_PHOTOGRAMMETRY_ENGINES lists nodeodm, but FIELDOPS_NODEODM_URL is not set',
      );
    },
    ENTRY_POINT_TEST_MS,
  );

  it(
    'let capture take colmap from the list where no COLMAP runs (it stops later, for its peers)',
    async () => {
      const capture = await runEntryPoint('services/capture/src/main.ts', {
        FIELDOPS_PHOTOGRAMMETRY_ENGINES: 'colmap',
        FIELDOPS_COLMAP_BIN: NOWHERE,
      });
      expect(capture.code).toBe(EXIT_CONFIG);
      expect(capture.stderr).toContain('FIELDOPS_PROJECTS_ADDR is required');
      expect(capture.stderr).not.toContain('COLMAP');
    },
    ENTRY_POINT_TEST_MS,
  );
});
