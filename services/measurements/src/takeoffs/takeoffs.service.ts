// Takeoffs: revisions of a project's quantity document. Saved by RecordTakeoff (captured lines
// off a snapshot, drawn lines as entered), listed, read whole, and compared revision to revision.
import { projectTenant, type MeasurementDeps } from '../deps.ts';
import { type RequestContext, AppError, newId, nowIso } from '@fieldops/kit';
import { getOfProject, listRpcOf } from '@fieldops/kit/domain';
import type { Doc, DocumentStore, Filter } from '@fieldops/kit/store';
import { projectWriteRpcOf, requireTenantId, type WritePlan } from '@fieldops/kit/write';
import type { measurements } from '@fieldops/proto';
import {
  buildTakeoff,
  takeoffDelta,
  type FigureChange,
  type TakeoffDocument,
  type TakeoffTotal,
} from '@fieldops/measure-engine';
import { QUANTITY_SNAPSHOTS, TAKEOFFS } from '../collections.ts';
import { emitMeasurementsEvent } from '../events.ts';
import { toSnapshot } from '../quantities/quantities.service.ts';
import type { SnapshotDoc } from '../quantities/quantities.service.ts';
import { capturedLines, checkLineSet, drawnLines, lineMessage } from './takeoff-lines.ts';

export interface TakeoffDoc extends Doc {
  projectId: string;
  revision: number;
  quantitiesId: string;
  createdAt: string;
  document: TakeoffDocument;
}

const MAX_ASSUMPTIONS = 50;

function totalMessage(total: TakeoffTotal): measurements.TakeoffTotal {
  return {
    costCode: total.costCode,
    unit: total.unit,
    quantity: total.quantity,
    ...(total.band ? { band: { ...total.band } } : {}),
    ...(total.uncertainty ? { uncertainty: { ...total.uncertainty } } : {}),
    provenance: { ...total.provenance },
    mixed: total.mixed,
    lineCount: total.lineCount,
  };
}

function toTakeoff(doc: TakeoffDoc, withLines: boolean): measurements.Takeoff {
  const d = doc.document;
  return {
    id: doc.id,
    projectId: doc.projectId,
    revision: doc.revision,
    quantitiesId: doc.quantitiesId,
    createdAt: doc.createdAt,
    lines: withLines ? d.lines.map(lineMessage) : [],
    rollup: d.rollup.map(totalMessage),
    provenance: { ...d.provenance },
    mixed: d.mixed,
    scope: d.scope,
    assumptions: [...d.assumptions],
    disclosures: [...d.disclosures],
  };
}

function shortTexts(values: readonly string[], field: string): string[] {
  if (values.length > MAX_ASSUMPTIONS)
    throw new AppError('field_invalid', `${field}: at most ${MAX_ASSUMPTIONS} entries.`, { field });
  return values.map((v) => v.trim()).filter(Boolean);
}

async function planRecordTakeoff(
  store: DocumentStore,
  tenantId: string,
  req: measurements.RecordTakeoffRequest,
  ctx: RequestContext,
): Promise<WritePlan<measurements.Takeoff>> {
  let snapshot: measurements.QuantitiesSnapshot | null = null;
  if (req.quantitiesId) {
    const ref = { projectId: req.projectId, id: req.quantitiesId };
    snapshot = toSnapshot(
      await getOfProject<SnapshotDoc>(store, QUANTITY_SNAPSHOTS, tenantId, ref, 'quantities'),
    );
  }
  const lines = [...capturedLines(req.captured, snapshot), ...drawnLines(req.drawn)];
  checkLineSet(lines);
  const document = buildTakeoff({
    lines,
    scope: req.scope.trim(),
    assumptions: shortTexts(req.assumptions, 'assumptions'),
    disclosures: [
      ...shortTexts(req.disclosures, 'disclosures'),
      ...(snapshot?.quantities?.disclosures ?? []),
    ],
  });
  const revision = (await store.count(TAKEOFFS, tenantId, { projectId: req.projectId })) + 1;
  const doc: TakeoffDoc = {
    id: newId('tko'),
    tenantId,
    version: 1,
    projectId: req.projectId,
    revision,
    quantitiesId: req.quantitiesId,
    createdAt: nowIso(),
    document,
  };
  return {
    ops: [
      { op: 'insert', collection: TAKEOFFS, doc },
      emitMeasurementsEvent(
        ctx,
        'takeoff.recorded',
        { kind: 'takeoff', id: doc.id },
        { projectId: doc.projectId, revision, lineCount: lines.length },
      ),
    ],
    result: toTakeoff(doc, true),
    created: true,
    rehearsal: {
      willDo: `Save revision ${revision} of the takeoff of project ${req.projectId} with ${lines.length} line(s).`,
      effects: [{ action: 'create', kind: 'takeoff', id: doc.id, changes: [] }],
    },
  };
}

export const recordTakeoff = projectWriteRpcOf(
  'recordTakeoff',
  'takeoff',
  (deps: MeasurementDeps, tenantId, req: measurements.RecordTakeoffRequest, ctx) =>
    planRecordTakeoff(deps.store, tenantId, req, ctx),
);

/** Newest revision first; each without its lines (the single read has them). */
export const listTakeoffs = listRpcOf(
  TAKEOFFS,
  { filter: projectTakeoffs, sort: { field: 'revision', direction: 'desc' } },
  (doc: TakeoffDoc) => toTakeoff(doc, false),
);

/** The takeoffs of a project the caller may see. */
async function projectTakeoffs(
  req: measurements.ListTakeoffsRequest,
  ctx: RequestContext,
  deps: MeasurementDeps,
): Promise<Filter> {
  await deps.projects.requireProject(req.projectId, ctx);
  return { projectId: req.projectId };
}

async function loadTakeoff(
  store: DocumentStore,
  tenantId: string,
  projectId: string,
  takeoffId: string,
): Promise<TakeoffDoc> {
  return getOfProject<TakeoffDoc>(store, TAKEOFFS, tenantId, { projectId, id: takeoffId }, 'takeoff');
}

export async function getTakeoff(
  deps: MeasurementDeps,
  req: measurements.GetTakeoffRequest,
  ctx: RequestContext,
): Promise<measurements.Takeoff> {
  const tenantId = await projectTenant(deps, req.projectId, ctx);
  return toTakeoff(await loadTakeoff(deps.store, tenantId, req.projectId, req.takeoffId), true);
}

function changeMessage(change: FigureChange): measurements.FigureChange {
  return {
    from: change.from,
    to: change.to,
    difference: change.difference,
    unit: change.unit,
    ...(change.band ? { band: { ...change.band } } : {}),
    side: change.side,
  };
}

export async function getTakeoffDelta(
  deps: MeasurementDeps,
  req: measurements.GetTakeoffDeltaRequest,
  ctx: RequestContext,
): Promise<measurements.TakeoffDelta> {
  const { store, projects } = deps;
  const tenantId = requireTenantId(ctx);
  if (!req.from)
    throw new AppError(
      'field_required',
      'from is required: the id of the older takeoff revision to compare with.',
      { field: 'from' },
    );
  await projects.requireProject(req.projectId, ctx);
  const to = await loadTakeoff(store, tenantId, req.projectId, req.takeoffId);
  const from = await loadTakeoff(store, tenantId, req.projectId, req.from);
  const delta = takeoffDelta(from.document, to.document);
  return {
    fromId: from.id,
    toId: to.id,
    fromRevision: from.revision,
    toRevision: to.revision,
    added: delta.added.map(lineMessage),
    removed: delta.removed.map(lineMessage),
    changed: delta.changed.map((c) => ({
      key: c.key,
      description: c.description,
      costCode: c.costCode,
      change: changeMessage(c),
    })),
    unchanged: delta.unchanged,
    rollup: delta.rollup.map((c) => ({ costCode: c.costCode, change: changeMessage(c) })),
  };
}
