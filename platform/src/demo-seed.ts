// Fills the demo tenant, once, with a small business worth opening: leads in every status with
// their inbound messages, customers, deals across the pipeline, a sent proposal and a draft
// invoice, a project with records, a booking on the schedule, and a capture of a stockpile
// (a generated point cloud) uploaded through presign, PUT and finalize and measured by the
// reconstruction worker. Where COLMAP runs, a second project holds a generated drone photo survey
// of a stockpile, started last (COLMAP takes a minute or more) and reported on its own. Every write goes through the public API with the demo Manager token, so
// it is validated, audited and evented exactly as a client's would be; nothing is written around
// it. `npm start` runs it on the first start only (FIELDOPS_DEMO=0 turns it off); the test
// harness starts the platform without it.
import { cone, onPlane, plyBinary, scatter } from '@fieldops/measure-engine/testing';
import { generateSurvey, type SurveyPhoto } from '@fieldops/survey-fixtures/survey';

type Json = Record<string, unknown>;

export interface DemoApi {
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Json>;
}

/** The API as a client calls it; a refusal stops the seeding with the API's own sentence. */
export function demoApi(baseUrl: string, token: string): DemoApi {
  return {
    async call(method, path, body, headers = {}) {
      const res = await fetch(`${baseUrl}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          'x-agent-run-id': 'demo-seed',
          'x-agent-task': 'fill the demo tenant',
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const reply = (await res.json()) as Json;
      if (res.status === 429) {
        // A client that paces itself: wait as long as Retry-After says, then send it again.
        const seconds = Number(res.headers.get('retry-after') ?? '1');
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        return this.call(method, path, body, headers);
      }
      if (res.status === 409 && reply['code'] === 'confirmation_required') {
        return this.call(method, path, body, {
          ...headers,
          [String(reply['confirmHeader'])]: String(reply['confirmToken']),
        });
      }
      if (!res.ok)
        throw new Error(`demo seed: ${method} ${path} answered ${res.status}: ${String(reply['error'])}`);
      return reply;
    },
  };
}

const idOf = (reply: Json, key: string): string => (reply[key] as { id: string }).id;
const days = (n: number): string => new Date(Date.now() + n * 86_400_000).toISOString();

const LEADS = [
  {
    name: 'Priya Shah',
    email: 'priya@harbourroofing.example',
    message: 'Can you survey three warehouse roofs before winter?',
    status: 'New',
  },
  {
    name: 'Tom Okafor',
    email: 'tom@okaforbuild.example',
    message: 'Looking for monthly progress flights on a 12-storey build.',
    status: 'Contacted',
  },
  {
    name: 'Lena Brandt',
    email: 'lena@brandtaggregates.example',
    message: 'We need stockpile volumes at our quarry every quarter.',
    status: 'Qualified',
  },
  {
    name: 'Marco Ruiz',
    email: 'marco@ruizsolar.example',
    message: 'Thermal inspection of a 4 MW solar farm?',
    status: 'Lost',
  },
] as const;

async function seedLeads(api: DemoApi): Promise<void> {
  for (const { status, ...lead } of LEADS) {
    const id = idOf(await api.call('POST', '/leads', { ...lead, source: 'website' }), 'lead');
    if (status !== 'New') await api.call('PATCH', `/leads/${id}`, { status }, { 'if-match': '*' });
  }
  const converted = idOf(
    await api.call('POST', '/leads', {
      name: 'Grace Whitfield',
      email: 'grace@whitfieldestates.example',
      message: 'Drone photos and a site model for a new housing plot.',
      source: 'referral',
    }),
    'lead',
  );
  await api.call('POST', `/leads/${converted}/convert`);
}

async function seedPipeline(api: DemoApi, customers: string[]): Promise<void> {
  // Deals are priced by a signed proposal; here they only move along the pipeline.
  const stages: string[][] = [[], ['send_proposal'], ['win'], ['win', 'schedule']];
  for (const [i, triggers] of stages.entries()) {
    const deal = idOf(
      await api.call('POST', '/deals', {
        customerId: customers[i % customers.length],
        expectedCloseAt: days(14 + i * 10).slice(0, 10),
      }),
      'deal',
    );
    for (const trigger of triggers) await api.call('POST', `/deals/${deal}/advance`, { trigger });
  }
}

const LINES = [
  { description: 'Stockpile survey flight (LiDAR)', quantity: 1, unitPriceCents: 85_000, taxRateBps: 2000 },
  { description: 'Volume report per stockpile', quantity: 3, unitPriceCents: 12_500, taxRateBps: 2000 },
];

async function seedBilling(api: DemoApi, customerId: string): Promise<void> {
  const proposal = idOf(
    await api.call('POST', '/proposals', {
      customerId,
      title: 'Quarterly stockpile volumes',
      lines: LINES,
      validUntil: days(30),
    }),
    'proposal',
  );
  await api.call('POST', `/proposals/${proposal}/send`);
  await api.call('POST', '/invoices', { customerId, title: 'October stockpile survey', lines: LINES });
}

/** A project of the demo customer at its quarry (both demo projects are there). */
async function createQuarryProject(api: DemoApi, customerId: string, name: string): Promise<string> {
  const site = {
    customerName: 'Brandt Aggregates',
    siteAddress: 'Brandt Aggregates, Quarry Road 4, Millbrook',
  };
  return idOf(await api.call('POST', '/projects', { customerId, name, ...site }), 'project');
}

async function seedProject(api: DemoApi, customerId: string): Promise<string> {
  const project = await createQuarryProject(api, customerId, 'Brandt Quarry: north stockpile');
  await api.call('POST', `/projects/${project}/records`, {
    kind: 'rfi',
    subject: 'Datum',
    question: 'Which vertical datum do you report volumes against?',
  });
  await api.call('POST', `/projects/${project}/records`, {
    kind: 'incident',
    title: 'Gate locked on arrival; 40 min delay',
  });
  await api.call('POST', '/bookings', {
    customerId,
    start: days(7),
    end: new Date(Date.parse(days(7)) + 3 * 3_600_000).toISOString(),
    resourceId: 'crew-north',
    notes: 'Quarterly flight: gate code 4411',
  });
  await api.call('POST', `/projects/${project}/lifecycle`, { trigger: 'schedule_assigned' });
  return project;
}

/** A 10 m-radius, 4 m-high gravel pile on a gently sloping pad: a capture the built-in engine measures. */
function stockpileCloud(): Uint8Array {
  return plyBinary(
    scatter(onPlane(cone(20, 20, 10, 4), 50, 0.02, -0.01), { size: 40, density: 12, sigma: 0.02, seed: 7 }),
  );
}

type Upload = { url: string; headers: Record<string, string> };

/** Presigns, PUTs and finalizes the frames as a client would; answers the reconstruction run's id. */
async function uploadCapture(
  api: DemoApi,
  projectId: string,
  frames: { name: string; contentType: string; bytes: Uint8Array }[],
  options: Json,
): Promise<string> {
  const presigned = await api.call('POST', `/projects/${projectId}/capture/presign`, {
    frames: frames.map(({ name, contentType, bytes }) => ({ name, contentType, size: bytes.byteLength })),
    ...options,
  });
  const uploads = presigned['uploads'] as Upload[];
  for (const [n, frame] of frames.entries()) {
    const put = await fetch(uploads[n]!.url, {
      method: 'PUT',
      headers: uploads[n]!.headers,
      body: frame.bytes,
    });
    if (!put.ok) throw new Error(`demo seed: uploading ${frame.name} answered ${put.status}`);
  }
  const session = idOf(presigned, 'session');
  const finalized = await api.call('POST', `/projects/${projectId}/capture/${session}/finalize`);
  return (finalized['session'] as { runId: string }).runId;
}

/** Polls the run (the worker reports no event a client could await) until it settles or `limitMs` passes. */
async function runSettled(api: DemoApi, projectId: string, runId: string, limitMs: number, what: string) {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    const run = (await api.call('GET', `/projects/${projectId}/runs/${runId}`))['run'] as {
      status: string;
      error?: string;
    };
    if (run.status === 'succeeded') return;
    if (run.status === 'failed')
      throw new Error(`demo seed: ${what} could not be processed: ${run.error ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`demo seed: ${what} was not processed within ${Math.round(limitMs / 60_000)} min`);
}

async function seedCapture(api: DemoApi, projectId: string): Promise<void> {
  const frames = [{ name: 'north-stockpile.ply', contentType: 'application/x-ply', bytes: stockpileCloud() }];
  const runId = await uploadCapture(api, projectId, frames, { hasLidar: true });
  await runSettled(api, projectId, runId, 60_000, 'the stockpile capture');
}

/** A COLMAP survey takes half a minute on two free cores and many minutes on a crowded machine. */
const PHOTO_RUN_LIMIT_MS = 15 * 60_000;

/**
 * The drone-photo project: 13 generated photos (480 × 360, survey-grade GPS in their EXIF) of a
 * stockpile of known volume, reconstructed by COLMAP and measured like any capture.
 */
async function seedPhotoSurvey(api: DemoApi, customerId: string): Promise<string> {
  const project = await createQuarryProject(api, customerId, 'North yard stockpile, drone photos');
  const photos: SurveyPhoto[] = generateSurvey({ grade: 'precise', width: 480, height: 360 }).photos;
  const frames = photos.map((p) => ({ name: p.name, contentType: 'image/jpeg', bytes: p.bytes }));
  const runId = await uploadCapture(api, project, frames, { source: 'drone', quality: 'draft' });
  await runSettled(api, project, runId, PHOTO_RUN_LIMIT_MS, 'the drone photo survey');
  return project;
}

export interface DemoSeedOptions {
  /** Whether COLMAP runs here (the capture service's own answer): only then is there a photo project. */
  colmap: boolean;
}

export interface DemoSeeded {
  projectId: string;
  /** The drone-photo project once its run succeeded; undefined where COLMAP is missing. */
  photoSurvey?: Promise<string>;
}

/**
 * Seeds everything, then starts the photo survey last and answers without waiting for it: the
 * caller reports `photoSurvey` on its own, so the rest of the tenant is usable meanwhile.
 */
export async function seedDemoTenant(api: DemoApi, options: DemoSeedOptions): Promise<DemoSeeded> {
  await seedLeads(api);
  const customers: string[] = [];
  const people = [
    ['Brandt Aggregates', 'lena@brandtaggregates.example'],
    ['Okafor Build Ltd', 'tom@okaforbuild.example'],
    ['Whitfield Estates', 'office@whitfieldestates.example'],
  ];
  for (const [name, email] of people) {
    customers.push(idOf(await api.call('POST', '/customers', { name, email }), 'customer'));
  }
  await seedPipeline(api, customers);
  await seedBilling(api, customers[0]!);
  const projectId = await seedProject(api, customers[0]!);
  await seedCapture(api, projectId);
  if (!options.colmap) return { projectId };
  return { projectId, photoSurvey: seedPhotoSurvey(api, customers[0]!) };
}
