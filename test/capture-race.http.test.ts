// The spec's race rule, proven with concurrent calls: "a racing finalize always wins over
// abort". Also concurrent duplicate finalizes meter once and queue one run.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from './support/harness.ts';
import { suiteTenant } from './support/suite-tenant.ts';
import { captureProject, plyCloud, pointFrame, presign, put, type SessionBody } from './support/capture.ts';

let projectId: string;

const { api } = await suiteTenant('Race Co');
beforeAll(async () => {
  projectId = await captureProject(api);
});

const bytes = plyCloud();

async function uploaded(): Promise<SessionBody> {
  const { session, uploads } = await presign(api, projectId, { frames: [pointFrame(bytes.length)] });
  expect((await put(uploads[0]!, bytes)).status).toBe(200);
  return session;
}

const finalize = (id: string) => api.post(`/projects/${projectId}/capture/${id}/finalize`);
const abort = (id: string) => api.post(`/projects/${projectId}/capture/${id}/abort?reason=cancelled`);
const poll = async (id: string) =>
  (await api.get(`/projects/${projectId}/capture/${id}`)).body.session as SessionBody;

async function finalizedEvents(id: string): Promise<number> {
  const page = await api.get(`/audit?resourceId=${id}`);
  return ((page.body.items as { action: string }[] | undefined) ?? []).filter(
    (item) => item.action === 'capture.finalized',
  ).length;
}

describe('finalize racing abort', () => {
  it('finalize wins every race, whichever request is sent first, and no fee stays billed', async () => {
    const sessions = await Promise.all(Array.from({ length: 8 }, () => uploaded()));
    const replies = await Promise.all(
      sessions.map((session, i) =>
        i % 2 === 0
          ? Promise.all([finalize(session.id), abort(session.id)])
          : Promise.all([abort(session.id), finalize(session.id)]).then(([a, f]) => [f, a] as const),
      ),
    );
    for (const [index, [finalized, aborted]] of replies.entries()) {
      expect(finalized.status).toBe(200);
      expect(aborted.status).toBe(200);
      const final = await poll(sessions[index]!.id);
      expect(final).toMatchObject({ status: 'finalized', storedBytes: bytes.length });
      expect(final.fee).toBeUndefined();
      expect(final.runId).toMatch(/^run_/);
    }
  });

  it('a finalize arriving just after an abort completed still wins, voiding the cancellation fee', async () => {
    const session = await uploaded();
    const aborted = await abort(session.id);
    expect((aborted.body.session as SessionBody).fee?.cents).toBeGreaterThan(0);
    const finalized = await finalize(session.id);
    expect(finalized.status).toBe(200);
    expect(finalized.body.session).toMatchObject({ status: 'finalized', abortOverridden: true });
    expect((finalized.body.session as SessionBody).fee).toBeUndefined();
    // The abort, repeated now, finds the session no longer uploading and leaves it alone.
    const late = await abort(session.id);
    expect(late.body.session).toMatchObject({ status: 'finalized' });
  });

  it('concurrent duplicate finalizes meter once and queue one run', async () => {
    const session = await uploaded();
    const replies = await Promise.all(Array.from({ length: 5 }, () => finalize(session.id)));
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200]);
    const runIds = new Set(replies.map((reply) => (reply.body.session as SessionBody).runId));
    expect(runIds.size).toBe(1);
    expect(replies.filter((reply) => reply.body.replayed === true)).toHaveLength(4);
    await eventually(async () => ((await finalizedEvents(session.id)) > 0 ? true : undefined));
    expect(await finalizedEvents(session.id)).toBe(1);
  });
});
