// Planning PATCH /projects/:id: If-Match first, then the amendable fields (never money, never
// status). A vertical change is refused once design or delivery work exists, because that work
// was made for the old vertical. Address, geo and access notes are kept in step on the site.
import { PROJECT_FIELD_LIMITS } from '@fieldops/contracts';
import {
  describeChanges,
  diffFields,
  assertIfMatch,
  checkLengths,
  compact,
  patched,
  getOrNotFound,
} from '@fieldops/kit/domain';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import type { DocumentStore, WriteOp } from '@fieldops/kit/store';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { projects } from '@fieldops/proto';
import { PROJECTS, SITES } from '../collections.ts';
import { eventEffect, updateEffect } from '../effects.ts';
import { emitProjectsEvent } from '../events.ts';
import { geoOf, requiredText, verticalOf } from './project-fields.ts';
import {
  hasDesignOrDeliveryContent,
  PROJECT_CHANGE_FIELDS,
  type GeoPoint,
  type ProjectDoc,
} from './project.model.ts';
import { toProjectView } from './project.view.ts';
import type { SiteDoc } from './site.model.ts';

export async function planUpdateProject(
  store: DocumentStore,
  tenantId: string,
  req: projects.UpdateProjectRequest,
  ctx: RequestContext,
): Promise<WritePlan<projects.Project>> {
  checkLengths(PROJECT_FIELD_LIMITS, req);
  const doc = await getOrNotFound<ProjectDoc>(store, PROJECTS, tenantId, req.id, 'project');
  assertIfMatch(req.ifMatch, doc, toProjectView(doc));
  const next = amended(doc, req);
  if (next.vertical !== doc.vertical && hasDesignOrDeliveryContent(doc)) throw verticalLocked(doc);

  const changes = diffFields(doc, next, PROJECT_CHANGE_FIELDS);
  const geoChanged = !sameGeo(doc.geo, next.geo);
  if (geoChanged) changes.push(compact({ field: 'geo', from: geoText(doc.geo), to: geoText(next.geo) }));
  if (changes.length === 0) return unchanged(doc);

  const stored: ProjectDoc = { ...next, version: doc.version + 1, updatedAt: nowIso() };
  const project = toProjectView(stored);
  const siteOps = await siteOpsFor(store, tenantId, stored, ctx);
  return {
    ops: [
      { op: 'replace', collection: PROJECTS, doc: stored, expectedVersion: doc.version },
      ...siteOps,
      emitProjectsEvent(ctx, 'project.updated', { kind: 'project', id: doc.id }, { project, changes }),
    ],
    result: project,
    created: false,
    rehearsal: {
      willDo: `Amend project ${doc.id}: ${describeChanges(changes)}.`,
      effects: [updateEffect('project', doc.id, changes), eventEffect('project.updated', doc.id)],
    },
  };
}

function amended(doc: ProjectDoc, req: projects.UpdateProjectRequest): ProjectDoc {
  return compact({
    ...doc,
    name: req.name === undefined ? doc.name : requiredText(req.name, 'name', 'a project keeps a name'),
    ownerId: patched(doc.ownerId, req.ownerId),
    siteAddress: patched(doc.siteAddress, req.siteAddress),
    geo: req.geo === undefined ? doc.geo : geoOf(req.geo),
    accessNotes: patched(doc.accessNotes, req.accessNotes),
    vertical: req.vertical === undefined ? doc.vertical : verticalOf(req.vertical),
  });
}

/** The site follows the project's address, geo and access notes (one place to read them from). */
async function siteOpsFor(
  store: DocumentStore,
  tenantId: string,
  project: ProjectDoc,
  ctx: RequestContext,
): Promise<WriteOp[]> {
  const site = await store.get<SiteDoc>(SITES, tenantId, project.siteId);
  if (!site) return [];
  const next: SiteDoc = compact({
    ...site,
    address: project.siteAddress,
    geo: project.geo,
    accessNotes: project.accessNotes,
  });
  const same =
    next.address === site.address && next.accessNotes === site.accessNotes && sameGeo(next.geo, site.geo);
  if (same) return [];
  const stored: SiteDoc = { ...next, version: site.version + 1, updatedAt: project.updatedAt };
  return [
    { op: 'replace', collection: SITES, doc: stored, expectedVersion: site.version },
    emitProjectsEvent(ctx, 'site.updated', { kind: 'site', id: site.id }, { siteId: site.id }),
  ];
}

/** A PATCH that changes nothing stores and emits nothing (as for leads and customers). */
function unchanged(doc: ProjectDoc): WritePlan<projects.Project> {
  return unchangedPlan(
    toProjectView(doc),
    `Nothing would change: project ${doc.id} already has these values.`,
  );
}

function verticalLocked(doc: ProjectDoc): AppError {
  return new AppError(
    'conflict',
    `The vertical of project ${doc.id} cannot change from ${doc.vertical}: it already has design or delivery work made for that vertical. Create a new project for the other vertical.`,
    { field: 'vertical', current: toProjectView(doc) },
  );
}

const sameGeo = (a: GeoPoint | undefined, b: GeoPoint | undefined): boolean =>
  a?.lat === b?.lat && a?.lng === b?.lng;

const geoText = (geo: GeoPoint | undefined): string | undefined =>
  geo ? `${geo.lat},${geo.lng}` : undefined;
