import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { projects } from '@fieldops/proto';
import { PROJECTS } from '../collections.ts';
import { eventEffect, updateEffect } from '../effects.ts';
import { emitProjectsEvent } from '../events.ts';
import type { ProjectContent, ProjectDoc } from './project.model.ts';
import { toProjectView } from './project.view.ts';
import { getOrNotFound } from '@fieldops/kit/domain';

export async function planReportContent(
  store: DocumentStore,
  tenantId: string,
  req: projects.ReportProjectContentRequest,
  ctx: RequestContext,
): Promise<WritePlan<projects.Project>> {
  const content = contentOf(req);
  const doc = await getOrNotFound<ProjectDoc>(store, PROJECTS, tenantId, req.id, 'project');
  const changes = (Object.keys(content) as (keyof ProjectContent)[])
    .filter((field) => content[field] !== doc.content[field])
    .map((field) => ({ field, from: String(doc.content[field]), to: String(content[field]) }));
  if (changes.length === 0) {
    return unchangedPlan(
      toProjectView(doc),
      `Nothing would change: project ${doc.id} already reports these counts.`,
    );
  }
  const stored: ProjectDoc = { ...doc, content, version: doc.version + 1, updatedAt: nowIso() };
  return {
    ops: [
      { op: 'replace', collection: PROJECTS, doc: stored, expectedVersion: doc.version },
      emitProjectsEvent(ctx, 'project.content_reported', { kind: 'project', id: doc.id }, { content }),
    ],
    result: toProjectView(stored),
    created: false,
    rehearsal: {
      willDo: `Record the content of project ${doc.id}.`,
      effects: [updateEffect('project', doc.id, changes), eventEffect('project.content_reported', doc.id)],
    },
  };
}

function contentOf(req: projects.ReportProjectContentRequest): ProjectContent {
  const content = {
    designs: req.designs,
    deliverables: req.deliverables,
    packagedDeliverables: req.packagedDeliverables,
  };
  for (const [field, count] of Object.entries(content)) {
    if (!Number.isInteger(count) || count < 0) {
      throw new AppError('field_invalid', `${field} must be a whole number of at least 0.`, { field });
    }
  }
  if (content.packagedDeliverables > content.deliverables) {
    throw new AppError('field_invalid', 'packagedDeliverables cannot exceed deliverables.', {
      field: 'packagedDeliverables',
    });
  }
  return content;
}
