// Planning POST /projects/:id/lifecycle: one trigger of the declared lifecycle machine
// (contracts/src/project-lifecycle.machine.ts). Spec order of refusals: cancel is never accepted;
// a destination already reached answers replayed: true; an illegal trigger is 409 with the legal
// ones; deliverable_shipped needs a packaged deliverable, so the status never contradicts the count.
import { LIFECYCLE_API_TRIGGERS, PROJECT_LIFECYCLE_MACHINE, type ProjectTrigger } from '@fieldops/contracts';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import type { DocumentStore } from '@fieldops/kit/store';
import { unchangedPlan, type WritePlan } from '@fieldops/kit/write';
import type { projects } from '@fieldops/proto';
import { PROJECTS } from '../collections.ts';
import { eventEffect, updateEffect } from '../effects.ts';
import { emitProjectsEvent } from '../events.ts';
import type { ProjectDoc } from './project.model.ts';
import { toProjectView } from './project.view.ts';
import { getOrNotFound } from '@fieldops/kit/domain';

export async function planLifecycleTrigger(
  store: DocumentStore,
  tenantId: string,
  req: projects.FireLifecycleTriggerRequest,
  ctx: RequestContext,
): Promise<WritePlan<projects.Project>> {
  const trigger = apiTrigger(req.trigger);
  const doc = await getOrNotFound<ProjectDoc>(store, PROJECTS, tenantId, req.id, 'project');
  const to = PROJECT_LIFECYCLE_MACHINE.destination(trigger);
  if (doc.status === to) return alreadyThere(doc);
  const legal = PROJECT_LIFECYCLE_MACHINE.legalTriggers(doc.status);
  if (!legal.includes(trigger)) throw illegal(doc, trigger, legal);
  if (needsPackagedDeliverable(trigger) && doc.content.packagedDeliverables === 0) {
    throw noPackagedDeliverable(doc, legal);
  }

  const now = nowIso();
  const stored: ProjectDoc = {
    ...doc,
    status: to,
    statusChangedAt: now,
    updatedAt: now,
    version: doc.version + 1,
  };
  const project = toProjectView(stored);
  const change = { field: 'status', from: doc.status, to };
  return {
    ops: [
      { op: 'replace', collection: PROJECTS, doc: stored, expectedVersion: doc.version },
      emitProjectsEvent(
        ctx,
        'project.status_changed',
        { kind: 'project', id: doc.id },
        { project, trigger, from: doc.status, to },
      ),
    ],
    result: project,
    created: false,
    rehearsal: {
      willDo: `Fire ${trigger} on project ${doc.id}: status ${doc.status} → ${to}.`,
      effects: [updateEffect('project', doc.id, [change]), eventEffect('project.status_changed', doc.id)],
    },
  };
}

function apiTrigger(value: string): Exclude<ProjectTrigger, 'cancel'> {
  const allowed = LIFECYCLE_API_TRIGGERS as readonly string[];
  if (PROJECT_LIFECYCLE_MACHINE.isTrigger(value) && allowed.includes(value))
    return value as Exclude<ProjectTrigger, 'cancel'>;
  const cancel = (PROJECT_LIFECYCLE_MACHINE.notByApi as readonly string[]).includes(value)
    ? ' cancel is not accepted through the API: cancelling a project is irreversible and is done by a person in the portal.'
    : '';
  throw new AppError('field_invalid_enum', `trigger must be one of ${allowed.join(', ')}.${cancel}`, {
    field: 'trigger',
    allowed: [...allowed],
  });
}

const needsPackagedDeliverable = (trigger: ProjectTrigger): boolean =>
  (PROJECT_LIFECYCLE_MACHINE.needsPackagedDeliverable as readonly string[]).includes(trigger);

function alreadyThere(doc: ProjectDoc): WritePlan<projects.Project> {
  return unchangedPlan(
    toProjectView(doc),
    `Nothing would change: project ${doc.id} is already ${doc.status}.`,
  );
}

function illegal(doc: ProjectDoc, trigger: string, legal: string[]): AppError {
  const options = legal.length ? `Legal from here: ${legal.join(', ')}.` : 'No trigger is legal from here.';
  return new AppError(
    'conflict',
    `${trigger} cannot fire while project ${doc.id} is ${doc.status}. ${options}`,
    { legalTriggers: legal, status: doc.status },
  );
}

function noPackagedDeliverable(doc: ProjectDoc, legal: string[]): AppError {
  return new AppError(
    'conflict',
    `deliverable_shipped needs a packaged deliverable, and project ${doc.id} has none yet. Package a deliverable from the project's scenes first.`,
    {
      legalTriggers: legal.filter((trigger) => !needsPackagedDeliverable(trigger as ProjectTrigger)),
      status: doc.status,
    },
  );
}
