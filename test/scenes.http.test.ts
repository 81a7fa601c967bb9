// Scenes, geometry, artifacts and export formats through HTTP (rows 7, 40, 68–70): what a
// succeeded reconstruction run left, an artifact link a client fetches without a token, and
// export formats that list only what this platform can actually produce.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { isInstalled } from '@fieldops/capture';
import { eventually, type Body } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';
import { captureProject, finalizedPointCapture, plyCloud, type RunBody } from './support/capture.ts';

let projectId: string;
let sceneId: string;
const bytes = plyCloud();

const { api } = await suiteTenant('Scenes Co');
beforeAll(async () => {
  projectId = await captureProject(api, 'Scene Site');
  const capture = await finalizedPointCapture(api, projectId, bytes);
  const run = await eventually(async () => {
    const polled = (await api.get(`/projects/${projectId}/runs/${capture.runId}`)).body.run as RunBody;
    return polled.status === 'succeeded' ? polled : undefined;
    // A bound on waiting, not a timing: a loaded 2-core machine (the full suite beside a COLMAP
    // run) took longer than the 15 s this was.
  }, 60_000);
  sceneId = run.sceneId;
}, 90_000);

type SceneBody = Body & {
  id: string;
  artifacts: { id: string; name: string }[];
  formats: string[];
  exportFormats: string[];
};

describe('GET /projects/:id/scenes and /scenes/:sceneId', () => {
  it('lists the scene a run produced, with its artifacts and formats', async () => {
    const reply = await api.get(`/projects/${projectId}/scenes`);
    expect(reply.status).toBe(200);
    const items = reply.body.items as SceneBody[];
    expect(items.map((scene) => scene.id)).toEqual([sceneId]);
    expect(items[0]).toMatchObject({ kind: 'point-cloud', pointCount: 81, formats: ['ply'] });
    expect(items[0]!.artifacts).toHaveLength(1);
    expect(items[0]!.exportFormats).toContain('ply');
    const one = await api.get(`/projects/${projectId}/scenes/${sceneId}`);
    expect((one.body.scene as SceneBody).id).toBe(sceneId);
  });

  it('is 404 for an unknown scene, and empty for a project without scenes', async () => {
    expect((await api.get(`/projects/${projectId}/scenes/scn_missing`)).status).toBe(404);
    const empty = await captureProject(api, 'Bare Site');
    expect((await api.get(`/projects/${empty}/scenes`)).body.items).toEqual([]);
    expect((await api.get(`/projects/${empty}/scenes/${sceneId}`)).status).toBe(404);
  });
});

describe('GET /projects/:id/scenes/:sceneId/geometry', () => {
  it('gives the extent in metres and the artifact that holds the points', async () => {
    const reply = await api.get(`/projects/${projectId}/scenes/${sceneId}/geometry`);
    expect(reply.status).toBe(200);
    expect(reply.body.geometry).toMatchObject({
      sceneId,
      pointCount: 81,
      unit: 'm',
      bounds: { minX: 0, minY: 0, minZ: 0, maxX: 2, maxY: 2, maxZ: 1 },
    });
  });
});

describe('GET /projects/:id/artifacts/:artifactId', () => {
  it('answers a short-lived link that fetches the bytes without a token', async () => {
    const scene = (await api.get(`/projects/${projectId}/scenes/${sceneId}`)).body.scene as SceneBody;
    const reply = await api.get(`/projects/${projectId}/artifacts/${scene.artifacts[0]!.id}`);
    expect(reply.status).toBe(200);
    const artifact = reply.body.artifact as { href: string; expiresAt: string; size: number };
    expect(artifact.size).toBe(bytes.length);
    expect(Date.parse(artifact.expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60 * 1000);
    const fetched = await fetch(artifact.href);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-disposition')).toContain('attachment');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await fetch(artifact.href, { method: 'PUT', body: 'x' })).status).toBe(403);
    expect((await api.get(`/projects/${projectId}/artifacts/art_missing`)).status).toBe(404);
  });
});

describe('GET /projects/:id/export-formats', () => {
  it('lists the stored format and only conversions whose program is installed', async () => {
    const reply = await api.get(`/projects/${projectId}/export-formats`);
    expect(reply.status).toBe(200);
    const items = reply.body.items as { id: string; via: string }[];
    expect(items).toContainEqual(expect.objectContaining({ id: 'ply', via: 'native' }));
    const converted = items.filter((item) => item.via !== 'native');
    if (isInstalled('pdal'))
      expect(converted.map((item) => item.id)).toEqual(expect.arrayContaining(['las', 'xyz']));
    else expect(converted).toEqual([]);
    expect((await api.get('/projects/prj_missing/export-formats')).status).toBe(404);
  });
});
