// The single project read (row 25) with what other services hold: the scenes come from capture
// (a finished reconstruction run), shown with their artifact ids and export formats.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  eventually,
  startTestPlatform,
  type Body,
  type Client,
  type TestPlatform,
} from './support/harness.js';
import { captureProject, finalizedPointCapture, plyCloud, type RunBody } from './support/capture.js';

let platform: TestPlatform;
let api: Client;

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ api } = await platform.tenant('Project Read Co'));
});
afterAll(() => platform.stop());

describe('GET /projects/:id', () => {
  it('lists no scenes before a capture is processed, then the scene its run produced', async () => {
    const projectId = await captureProject(api, 'Read Site');
    expect((await api.get(`/projects/${projectId}`)).body.scenes).toEqual([]);

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
});
