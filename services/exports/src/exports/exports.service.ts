// POST /exports, GET /exports, GET /exports/:id. Queuing is a keyed write (opId replays it;
// without a key a retry queues a second archive); the packager does the rest in the background.
// Download links are minted on every read of a ready export, so each one is short-lived.
import { EXPORT_STATUS_MACHINE } from '@fieldops/contracts';
import { parseBlobKey, type BlobStore } from '@fieldops/kit/blobs';
import {
  actorOf,
  createEffect,
  eventEffect,
  pageCursor,
  pageLimit,
  readPage,
  getOrNotFound,
  NEWEST_FIRST,
} from '@fieldops/kit/domain';
import { type RequestContext, newId, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { requireTenantId, runWrite, type WritePlan } from '@fieldops/kit/write';
import type { tenantExports } from '@fieldops/proto';
import { EXPORTS } from '../collections.ts';
import { emitExportsEvent } from '../events.ts';
import { enqueueExport } from './export-queue.ts';
import { isSettled, toExportView, type ExportDoc } from './export.model.ts';
import type { ExportSettings } from './export-settings.ts';

export interface ExportDeps {
  store: DocumentStore;
  blobs: BlobStore;
  settings: Pick<ExportSettings, 'linkSeconds'>;
  /** Nudges the packager after a new export is queued. */
  wake: () => void;
}

function planCreate(tenantId: string, req: tenantExports.CreateExportRequest, ctx: RequestContext) {
  const now = nowIso();
  const doc: ExportDoc = {
    id: newId('exp'),
    tenantId,
    version: 1,
    status: EXPORT_STATUS_MACHINE.initial,
    attempts: 0,
    requestedBy: actorOf(ctx),
    createdAt: now,
    updatedAt: now,
    ...(req.opId || ctx.idempotencyKey ? { opId: req.opId || ctx.idempotencyKey } : {}),
  };
  const plan: WritePlan<ExportDoc> = {
    ops: [
      { op: 'insert', collection: EXPORTS, doc },
      emitExportsEvent(ctx, 'export.queued', { kind: 'export', id: doc.id }, { status: doc.status }),
    ],
    result: doc,
    created: true,
    rehearsal: {
      willDo: 'Queue an archive of the whole tenant.',
      effects: [createEffect('export', doc.id, []), eventEffect('export.queued', doc.id)],
    },
  };
  return plan;
}

export async function createExport(
  deps: ExportDeps,
  req: tenantExports.CreateExportRequest,
  ctx: RequestContext,
): Promise<tenantExports.ExportWrite> {
  const tenantId = requireTenantId(ctx);
  const { result, meta } = await runWrite(deps.store, ctx, {
    operation: 'createExport',
    fingerprint: req,
    plan: async () => planCreate(tenantId, req, ctx),
  });
  if (!ctx.dryRun) {
    // Also on a replay: if the process died between the commit and this line, the retry queues it.
    const stored = await deps.store.get<ExportDoc>(EXPORTS, tenantId, result.id);
    if (stored && !isSettled(stored)) {
      await enqueueExport(deps.store, tenantId, result.id);
      deps.wake();
    }
  }
  return { export: toExportView(result), meta };
}

async function withLink(deps: ExportDeps, doc: ExportDoc): Promise<tenantExports.TenantExport> {
  const view = toExportView(doc);
  const expired = doc.expiresAt !== undefined && doc.expiresAt <= nowIso();
  if (doc.status !== EXPORT_STATUS_MACHINE.destination('finish') || !doc.archiveKey || expired) return view;
  const link = await deps.blobs.presignGet(parseBlobKey(doc.archiveKey), {
    expiresInSeconds: deps.settings.linkSeconds,
    downloadName: `fieldops-export-${doc.id}.tar.gz`,
  });
  return { ...view, downloadUrl: link.url, downloadUrlExpiresAt: link.expiresAt };
}

export async function listExports(
  deps: ExportDeps,
  req: tenantExports.ListExportsRequest,
  ctx: RequestContext,
): Promise<tenantExports.ExportPage> {
  const tenantId = requireTenantId(ctx);
  const page = await readPage(() =>
    deps.store.page<ExportDoc>(EXPORTS, tenantId, {
      sort: NEWEST_FIRST,
      limit: pageLimit(req.page),
      cursor: pageCursor(req.page),
    }),
  );
  const items = await Promise.all(page.items.map((doc) => withLink(deps, doc)));
  return { items, nextCursor: page.nextCursor ?? '' };
}

export async function getExport(
  deps: ExportDeps,
  req: tenantExports.GetExportRequest,
  ctx: RequestContext,
): Promise<tenantExports.TenantExport> {
  const doc = await getOrNotFound<ExportDoc>(deps.store, EXPORTS, requireTenantId(ctx), req.id, 'export');
  return withLink(deps, doc);
}
