// The single project read (row 25) with what other services hold: the scenes come from capture
// (a finished reconstruction run), shown with their artifact ids and export formats, and each
// scene's deliverable manifest, whose hrefs open in a portal session and not with a token. A ready
// scene is a packaged deliverable, so the project may then be moved by deliverable_shipped.
import { describe, expect, it } from '@jest/globals';
import { eventually, portalSession, type Body } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';
import { captureProject, finalizedPointCapture, plyCloud, type RunBody } from './support/capture.ts';

const { platform, api, tenantId } = await suiteTenant('Project Read Co');

describe('GET /projects/:id', () => {
  it('lists no scenes before a capture is processed, then the scene its run produced', async () => {
    const projectId = await captureProject(api, 'Read Site');
    const before = await api.get(`/projects/${projectId}`);
    expect(before.body.scenes).toEqual([]);
    expect(before.body.deliverables).toEqual([]);

    const capture = await finalizedPointCapture(api, projectId, plyCloud());
    const run = await eventually(async () => {
      const polled = (await api.get(`/projects/${projectId}/runs/${capture.runId}`)).body.run as RunBody;
      return polled.status === 'succeeded' ? polled : undefined;
    }, 15_000);

    const scene = (await api.get(`/projects/${projectId}/scenes/${run.sceneId}`)).body.scene as Body & {
      artifacts: { id: string }[];
      exportFormats: string[];
    };
    const read = await api.get(`/projects/${projectId}`);
    expect(read.status).toBe(200);
    expect(read.body.scenes).toEqual([
      {
        id: run.sceneId,
        name: expect.any(String),
        status: 'ready',
        artifactIds: scene.artifacts.map((artifact) => artifact.id),
        exportFormats: scene.exportFormats,
      },
    ]);
    expect(scene.artifacts.length).toBeGreaterThan(0);
  });

  it('shows each scene as a packaged deliverable whose files open in a portal session, not with a token', async () => {
    const projectId = await captureProject(api, 'Deliverable Site');
    for (const trigger of ['schedule_assigned', 'capture_started', 'capture_completed']) {
      expect((await api.post(`/projects/${projectId}/lifecycle`, { trigger })).status).toBe(200);
    }
    const early = await api.post(`/projects/${projectId}/lifecycle`, { trigger: 'deliverable_shipped' });
    expect(early.status).toBe(409);

    const capture = await finalizedPointCapture(api, projectId, plyCloud());
    const sceneId = await eventually(async () => {
      const polled = (await api.get(`/projects/${projectId}/runs/${capture.runId}`)).body.run as RunBody;
      return polled.status === 'succeeded' ? polled.sceneId : undefined;
    }, 15_000);
    const scene = (await api.get(`/projects/${projectId}/scenes/${sceneId}`)).body.scene as Body & {
      artifacts: { id: string; name: string; contentType: string; size: number }[];
    };

    const read = await api.get(`/projects/${projectId}`);
    expect(read.body.deliverables).toEqual([
      {
        id: sceneId,
        name: expect.any(String),
        packaged: true,
        files: scene.artifacts.map((artifact) => ({
          name: artifact.name,
          href: `/api/portal/projects/${projectId}/artifacts/${artifact.id}`,
          contentType: artifact.contentType,
          size: artifact.size,
        })),
      },
    ]);
    const [file] = (read.body.deliverables as { files: { href: string; size: number }[] }[])[0]!.files;

    // A token cannot fetch the href; a member's browser session is sent on to the bytes.
    const withToken = await fetch(`${platform.url}${file!.href}`, {
      headers: { authorization: `Bearer ${(await platform.token(tenantId, { role: 'Manager' })).secret}` },
      redirect: 'manual',
    });
    expect(withToken.status).toBe(401);
    const session = await portalSession(platform, tenantId, { role: 'Manager', email: 'pm@read.test' });
    const opened = await fetch(`${platform.url}${file!.href}`, { headers: session, redirect: 'manual' });
    expect(opened.status).toBe(302);
    const bytes = await fetch(new URL(opened.headers.get('location')!, platform.url));
    expect(bytes.status).toBe(200);
    expect((await bytes.arrayBuffer()).byteLength).toBe(file!.size);
    const elsewhere = await fetch(`${platform.url}/api/portal/projects/${projectId}/artifacts/art_nope`, {
      headers: session,
      redirect: 'manual',
    });
    expect(elsewhere.status).toBe(404);

    // Capture reported the packaged deliverable to projects, so the project can now be delivered.
    const shipped = await eventually(async () => {
      const moved = await api.post(`/projects/${projectId}/lifecycle`, { trigger: 'deliverable_shipped' });
      return moved.status === 200 ? moved : undefined;
    }, 10_000);
    expect((shipped.body.project as Body).status).toBe('delivered');
  });
});
