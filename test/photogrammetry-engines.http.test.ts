// FIELDOPS_PHOTOGRAMMETRY_ENGINES through HTTP: which photogrammetry engines exist is the list's
// to say, for capture and its workers alike (services/capture/src/photogrammetry-engines.ts).
//   - `none` refuses photos at presign with the sentence a platform without an engine has always
//     used, even where a COLMAP binary answers and a NodeODM URL is set;
//   - `colmap` on a capture that runs no workers (FIELDOPS_CAPTURE_WORKERS=0, as the capture pod of
//     a cluster) accepts photos for COLMAP although no COLMAP runs on its machine, where today's
//     look at its own machine would refuse them;
//   - a platform that runs the workers itself refuses to start when it cannot run an engine listed
//     (COLMAP's binary points nowhere), and any platform when `nodeodm` has no URL.
// COLMAP here is a stand-in script that answers `colmap help` as COLMAP does; nothing is reconstructed.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { captureProject, pointFrame, type SessionBody } from './support/capture.ts';
import { startTestPlatform, type Body, type Reply } from './support/harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'fieldops-engines-http-'));
const COLMAP = join(dir, 'colmap');
writeFileSync(COLMAP, '#!/bin/sh\necho "COLMAP 3.9 -- Structure-from-Motion and Multi-View Stereo"\n');
chmodSync(COLMAP, 0o755);
const NOWHERE = join(dir, 'no-such-colmap');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const photos = {
  frames: [1, 2, 3].map((n) => ({ name: `DJI_000${n}.JPG`, contentType: 'image/jpeg', size: 10 })),
};

/** A platform with these settings, a tenant and a project; the body runs, then the platform stops. */
async function withPlatform(
  env: Record<string, string>,
  body: (presign: (request: object) => Promise<Reply<Body>>) => Promise<void>,
): Promise<void> {
  const platform = await startTestPlatform(env);
  try {
    const { api } = await platform.tenant('Engines Co');
    const projectId = await captureProject(api);
    await body((request: object) => api.post(`/projects/${projectId}/capture/presign`, request));
  } finally {
    await platform.stop();
  }
}

describe('FIELDOPS_PHOTOGRAMMETRY_ENGINES', () => {
  it('none: presign refuses photos with the sentence of a platform without an engine, though COLMAP answers here', async () => {
    await withPlatform(
      {
        FIELDOPS_PHOTOGRAMMETRY_ENGINES: 'none',
        FIELDOPS_COLMAP_BIN: COLMAP,
        FIELDOPS_NODEODM_URL: 'http://127.0.0.1:1',
      },
      async (presign) => {
        const refused = await presign(photos);
        expect([refused.status, refused.body.code, refused.body.field]).toEqual([
          400,
          'field_invalid',
          'engine',
        ]);
        expect(refused.body.error).toBe(
          'engine colmap cannot process this capture: no photogrammetry engine is configured on this platform ' +
            '(the operator can install COLMAP (apt-get install colmap, or set FIELDOPS_COLMAP_BIN to its binary) ' +
            'or set FIELDOPS_NODEODM_URL to a NodeODM server).',
        );
        expect(refused.body.feasible).toEqual([]);
        // Point clouds still go to the built-in engine.
        expect((await presign({ frames: [pointFrame(10)] })).status).toBe(201);
      },
    );
  });

  it('colmap: a capture without workers and without COLMAP accepts photos for COLMAP, and only for COLMAP', async () => {
    await withPlatform(
      {
        FIELDOPS_PHOTOGRAMMETRY_ENGINES: 'colmap',
        FIELDOPS_CAPTURE_WORKERS: '0',
        FIELDOPS_COLMAP_BIN: NOWHERE,
      },
      async (presign) => {
        const accepted = await presign(photos);
        expect(accepted.status).toBe(201);
        expect((accepted.body.session as SessionBody).engine).toBe('colmap');
        const nodeodm = await presign({ ...photos, engine: 'nodeodm' });
        expect([nodeodm.status, nodeodm.body.field]).toEqual([400, 'engine']);
        expect(nodeodm.body.error).toContain('NodeODM is not configured on this platform');
        expect(nodeodm.body.feasible).toEqual([
          { engine: 'colmap', modes: expect.arrayContaining(['volumes']) },
        ]);
      },
    );
  });

  it('refuses to start a platform that runs workers and cannot run COLMAP, or that lists nodeodm without a URL', async () => {
    await expect(
      startTestPlatform(
        { FIELDOPS_PHOTOGRAMMETRY_ENGINES: 'colmap', FIELDOPS_COLMAP_BIN: NOWHERE },
        // In this suite's folder: a platform that does not start leaves its data dir behind.
        join(dir, 'refused-colmap'),
      ),
    ).rejects.toThrow(
      `FIELDOPS_PHOTOGRAMMETRY_ENGINES lists colmap, but FIELDOPS_COLMAP_BIN is "${NOWHERE}"`,
    );
    await expect(
      startTestPlatform(
        { FIELDOPS_PHOTOGRAMMETRY_ENGINES: 'nodeodm', FIELDOPS_CAPTURE_WORKERS: '0' },
        join(dir, 'refused-nodeodm'),
      ),
    ).rejects.toThrow('FIELDOPS_PHOTOGRAMMETRY_ENGINES lists nodeodm, but FIELDOPS_NODEODM_URL is not set');
  });
});
