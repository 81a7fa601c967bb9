// Reading one session of a project: a session of another project is as absent as a missing one.
import { getOfProject } from '@fieldops/kit/domain';
import type { DocumentStore } from '@fieldops/kit/store';
import { CAPTURE_SESSIONS } from '../collections.ts';
import type { CaptureSessionDoc } from '../session-model/session.model.ts';

export async function loadSession(
  store: DocumentStore,
  tenantId: string,
  projectId: string,
  sessionId: string,
): Promise<CaptureSessionDoc> {
  const ref = { projectId, id: sessionId };
  return getOfProject<CaptureSessionDoc>(store, CAPTURE_SESSIONS, tenantId, ref, 'capture session');
}
