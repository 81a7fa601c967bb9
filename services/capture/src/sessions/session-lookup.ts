// Reading one session of a project: a session of another project is as absent as a missing one.
import { notFound } from '@fieldops/kit/errors';
import type { DocumentStore } from '@fieldops/kit/store/port';
import { CAPTURE_SESSIONS } from '../collections.js';
import type { CaptureSessionDoc } from './session.model.js';

export async function loadSession(
  store: DocumentStore,
  tenantId: string,
  projectId: string,
  sessionId: string,
): Promise<CaptureSessionDoc> {
  const doc = await store.get<CaptureSessionDoc>(CAPTURE_SESSIONS, tenantId, sessionId);
  if (!doc || doc.projectId !== projectId) throw notFound('capture session', sessionId);
  return doc;
}
