// The chart's own Deployments, run as containers from the built images (npm run cluster -- start
// --containers): what runs is what the chart renders, a photo survey reconstructs on a
// containerized capture worker within its band, and a container killed with SIGKILL is restarted
// by the supervisor and its kind serves again with its records. Needs the images (`npm run image
// -- build`), root (network namespaces, runc), Redis, and S3 (FIELDOPS_TEST_S3): CI runs it in
// `npm run test:cluster -- --containers`; `npm test` leaves test/containers out (jest.config.js).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateSurvey } from '@fieldops/survey-fixtures/survey';
import {
  containerPid,
  killContainer,
  waitForContainer,
} from '../../scripts/cluster/containers/containers.mjs';
import { podsOf } from '../../scripts/cluster/containers/pod-spec.mjs';
import { parseAllDocuments } from 'yaml';
import {
  startTestContainerCluster,
  type TestContainerCluster,
} from '../../scripts/cluster/containers/test-support.mjs';
import { buildah } from '../../scripts/image/buildah.mjs';
import { imageForKind } from '../../scripts/image/images.mjs';
import { captureProject, presign, put, type RunBody, type SessionBody } from '../support/capture.ts';
import { eventually, GENEROUS_LIMITS, httpClient, type Body, type Client } from '../support/harness.ts';
import { newTenant } from '../support/keyed-writes.ts';

/** Ten containers starting on two loaded cores, and a stop that drains each. */
const START_TIMEOUT_MS = 420_000;
const STOP_TIMEOUT_MS = 180_000;
/** A survey is about half a minute of COLMAP on two free cores; many minutes on a crowded machine. */
const RUN_TIMEOUT_MS = 900_000;

let test: TestContainerCluster | undefined;
const cluster = () => {
  if (!test) throw new Error('the containerized cluster of this file did not start');
  return test;
};

/** Set in this shell before the start: a container that inherited the shell would have it. */
const CANARY = 'FIELDOPS_SHELL_CANARY';

beforeAll(async () => {
  process.env[CANARY] = 'from-the-shell';
  test = await startTestContainerCluster({ env: GENEROUS_LIMITS, workers: 2 });
}, START_TIMEOUT_MS);
afterAll(() => test?.stop(), STOP_TIMEOUT_MS);

async function tenantApi(name: string): Promise<Client> {
  const { url, adminSecret } = cluster().cluster;
  return httpClient(`${url}/api/v1`, await newTenant({ url }, name, adminSecret));
}

/** The environment a running container's first process really has, read from /proc. */
async function liveEnvironment(component: string): Promise<Record<string, string>> {
  const pid = await containerPid({ dataDir: cluster().dataDir }, component);
  const lines = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/** An image's own ENV, as buildah stored it. */
async function imageEnv(ref: string): Promise<Record<string, string>> {
  const inspected = JSON.parse(await buildah(['inspect', '--type', 'image', ref])) as {
    OCIv1: { config: { Env?: string[] } };
  };
  return Object.fromEntries(
    (inspected.OCIv1.config.Env ?? []).map((line) => [
      line.slice(0, line.indexOf('=')),
      line.slice(line.indexOf('=') + 1),
    ]),
  );
}

/** The rendered chart this cluster runs, and what its pods' containers must get. */
function renderedPods() {
  const text = readFileSync(`${cluster().dataDir}/rendered.yaml`, 'utf8');
  const manifests = parseAllDocuments(text)
    .map((doc) => doc.toJS())
    .filter(Boolean);
  // The images' own ENV is checked apart: here, only what the chart gives.
  return podsOf(manifests, () => ({ env: {}, user: '', workingDir: '/' }));
}

describe('the chart’s Deployments as containers', () => {
  it('runs ten containers of nine kinds from the built images, none a host process', () => {
    const { containers } = cluster().cluster;
    expect(containers).toHaveLength(10);
    expect(new Set(containers.map((c) => c.component)).size).toBe(9);
    expect(containers.filter((c) => c.component === 'capture-worker')).toHaveLength(2);
    for (const c of containers) {
      expect({ pod: c.pod, image: c.image, state: c.state, ready: c.ready }).toEqual({
        pod: c.pod,
        image: imageForKind(c.component),
        state: 'running',
        ready: true,
      });
    }
  });

  it('gives each container exactly the chart’s environment over the image’s, and nothing of this shell', async () => {
    for (const pod of renderedPods().filter((p) => p.index === 0)) {
      const image = await imageEnv(pod.container.image);
      const { HOME, ...live } = await liveEnvironment(pod.component);
      // What the kubelet composes: the image's ENV, then the Deployment's, which wins.
      expect({ component: pod.component, env: live }).toEqual({
        component: pod.component,
        env: { ...image, ...pod.container.env },
      });
      // HOME, set by neither, the runtime takes from the image's /etc/passwd for uid 1000, as
      // Docker and containerd do: the base image's node user.
      expect(HOME).toBe('/home/node');
      expect(live[CANARY]).toBeUndefined();
      expect(live['MONGODB_URI']).toBeUndefined();
    }
  });

  it(
    'reconstructs a photo survey on a containerized worker, measured within its band',
    async () => {
      const api = await tenantApi('Container Survey Co');
      const survey = generateSurvey({ grade: 'precise', width: 480, height: 360 });
      const projectId = await captureProject(api, 'Container Pit');
      const { session, uploads } = await presign(api, projectId, {
        frames: survey.photos.map((p) => ({ name: p.name, contentType: 'image/jpeg', size: p.bytes.length })),
        source: 'drone',
        quality: 'draft',
      });
      for (const [n, photo] of survey.photos.entries()) {
        // Presigned for the public endpoint this machine reaches, not the in-cluster name.
        expect(uploads[n]!.url.startsWith(cluster().cluster.s3.env['S3_ENDPOINT']!)).toBe(true);
        expect((await put(uploads[n]!, photo.bytes)).status).toBe(200);
      }
      const finalized = await api.post(`/projects/${projectId}/capture/${session.id}/finalize`);
      expect(finalized.status).toBe(200);
      const runId = (finalized.body.session as SessionBody).runId;
      const run = await eventually(async () => {
        const reply = await api.get(`/projects/${projectId}/runs/${runId}`);
        const current = reply.status === 200 ? (reply.body.run as RunBody) : undefined;
        return current?.status === 'succeeded' || current?.status === 'failed' ? current : undefined;
      }, RUN_TIMEOUT_MS);
      expect({ status: run.status, error: run.error }).toEqual({ status: 'succeeded', error: '' });
      const quantities = (await api.get(`/projects/${projectId}/quantities`)).body.quantities as Body & {
        rollup: { fill: number; bands: Record<string, { plusMinus: number }> };
      };
      const { fill, bands } = quantities.rollup;
      expect(Math.abs(fill - survey.trueVolumeM3)).toBeLessThanOrEqual(bands['fill']!.plusMinus);
      // It ran in a worker container: its log says it claimed the run.
      const logs = cluster()
        .cluster.containers.filter((c) => c.component === 'capture-worker')
        .map((c) => readFileSync(c.log, 'utf8'));
      expect(logs.some((log) => log.includes('"run claimed"') && log.includes(runId))).toBe(true);
    },
    RUN_TIMEOUT_MS + 120_000,
  );

  it('restarts a container killed with SIGKILL, and its kind serves again with its records', async () => {
    const api = await tenantApi('Container Restart Co');
    const created = await api.post('/customers', { name: 'Kept Across A Restart' });
    expect(created.status).toBe(201);
    const id = (created.body.customer as Body)['id'];
    const killed = await killContainer({ dataDir: cluster().dataDir }, 'crm');
    expect(killed.lastExit).toMatchObject({ code: 137, reason: 'Killed' });
    const back = await waitForContainer({ dataDir: cluster().dataDir }, 'crm', { restarts: 1 });
    expect(back.restarts).toBe(1);
    // The embedded store lives on the pod's data volume, which a container restart keeps.
    const read = await eventually(async () => {
      const reply = await api.get(`/customers/${String(id)}`);
      return reply.status === 200 ? reply : undefined;
    }, 120_000);
    expect((read.body.customer as Body)['name']).toBe('Kept Across A Restart');
    expect((await api.post('/customers', { name: 'After The Restart' })).status).toBe(201);
  }, 300_000);
});
