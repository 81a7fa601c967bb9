import { projectWriteRpcOf, requireTenantId, writeRpc } from '@fieldops/kit/write';
import type { capture } from '@fieldops/proto';
import type { CaptureDeps } from '../deps.ts';
import { requiredId } from '../fields.ts';
import { abortReasonOf, planAbort } from './abort.plan.ts';
import { planFinalize } from './finalize.plan.ts';
import { planPresign } from './presign.plan.ts';
import { uploadUrls } from './presign-urls.ts';
import { loadSession } from './session-lookup.ts';
import { toSessionView } from '../session-model/session.model.ts';
import { CAPTURE_SESSIONS } from '../collections.ts';
import { type RequestContext, AppError } from '@fieldops/kit';
import { listPage, NEWEST_FIRST } from '@fieldops/kit/domain';

export async function presignCapture(
  deps: CaptureDeps,
  req: capture.PresignCaptureRequest,
  ctx: RequestContext,
): Promise<capture.CaptureWrite> {
  const projectId = requiredId('id', req.projectId);
  await deps.projects.requireProject(projectId, ctx);
  const { session, meta } = await writeRpc(deps.store, ctx, 'session', {
    operation: 'presignCapture',
    fingerprint: req,
    plan: (tenantId) => planPresign(deps, tenantId, { ...req, projectId }, ctx),
  });
  // URLs are minted fresh on every answer (a replay too): they are short-lived, the keys are not.
  const uploads = meta.rehearsal ? [] : await uploadUrls(deps, session);
  return { session, uploads, meta };
}

const finalize = projectWriteRpcOf('finalizeCapture', 'session', planFinalize);

export async function finalizeCapture(
  deps: CaptureDeps,
  req: capture.CaptureRef,
  ctx: RequestContext,
): Promise<capture.CaptureWrite> {
  return { ...(await finalize(deps, req, ctx)), uploads: [] };
}

const abort = projectWriteRpcOf('abortCapture', 'session', planAbort);

/** The reason is checked before the project is asked for, as a request's own fields are. */
export async function abortCapture(
  deps: CaptureDeps,
  req: capture.AbortCaptureRequest,
  ctx: RequestContext,
): Promise<capture.CaptureWrite> {
  abortReasonOf(req.reason);
  return { ...(await abort(deps, req, ctx)), uploads: [] };
}

export async function getCapture(
  deps: CaptureDeps,
  req: capture.CaptureRef,
  ctx: RequestContext,
): Promise<capture.CaptureSession> {
  const tenantId = requireTenantId(ctx);
  await deps.projects.requireProject(req.projectId, ctx);
  return toSessionView(await loadSession(deps.store, tenantId, req.projectId, req.sessionId));
}

/** The most projects one ListCaptures call may name (a customer read names at most this many). */
export const LIST_CAPTURES_MAX_PROJECTS = 100;

/**
 * Capture sessions of the named projects, newest first. The caller (the gateway's customer read)
 * has already listed the projects the token may see, so no project is looked up again here.
 */
export async function listCaptures(
  deps: CaptureDeps,
  req: capture.ListCapturesRequest,
  ctx: RequestContext,
): Promise<capture.CapturePage> {
  const tenantId = requireTenantId(ctx);
  if (req.projectIds.length > LIST_CAPTURES_MAX_PROJECTS) {
    throw new AppError(
      'field_invalid',
      `projectIds names ${req.projectIds.length} projects; name at most ${LIST_CAPTURES_MAX_PROJECTS} per call.`,
      { field: 'projectIds' },
    );
  }
  if (req.projectIds.length === 0) return { items: [], nextCursor: '' };
  return listPage(
    deps.store,
    CAPTURE_SESSIONS,
    tenantId,
    req.page,
    { filter: { projectId: { $in: req.projectIds } }, sort: NEWEST_FIRST },
    toSessionView,
  );
}
