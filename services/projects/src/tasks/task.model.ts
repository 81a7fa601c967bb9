// A task filed by a member: a to-do, a site visit (dated; the day view lists it) or a piece of
// work on a project (it joins the project's schedule network, or replaces one of its template's
// tasks by that task's id).
import { compact, type Complete } from '@fieldops/kit/domain';
import type { Doc } from '@fieldops/kit/store';
import type { planning } from '@fieldops/proto';
import type { Dependency, TaskDefinition } from '../schedule/network.ts';

export const TASK_KINDS = ['todo', 'visit', 'work'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

export interface TaskDoc extends Doc {
  memberId: string;
  kind: TaskKind;
  title: string;
  projectId?: string;
  dueDate?: string;
  notes?: string;
  status: 'open';
  durationDays?: number;
  predecessors?: Dependency[];
  replacesTemplateTask?: string;
  startNoEarlierThan?: string;
  createdAt: string;
  opId?: string;
}

/** The id a work task has in its project's network. */
export const networkIdOf = (doc: Pick<TaskDoc, 'id' | 'replacesTemplateTask'>): string =>
  doc.replacesTemplateTask ?? doc.id;

export function toNetworkTask(doc: TaskDoc): TaskDefinition {
  return compact({
    id: networkIdOf(doc),
    name: doc.title,
    durationDays: doc.durationDays ?? 0,
    predecessors: doc.predecessors ?? [],
    startNoEarlierThan: doc.startNoEarlierThan,
  });
}

export function toTaskView(doc: TaskDoc): planning.Task {
  return compact({
    id: doc.id,
    memberId: doc.memberId,
    kind: doc.kind,
    title: doc.title,
    projectId: doc.projectId,
    dueDate: doc.dueDate,
    notes: doc.notes,
    status: doc.status,
    durationDays: doc.durationDays,
    predecessors: doc.predecessors ?? [],
    replacesTemplateTask: doc.replacesTemplateTask,
    startNoEarlierThan: doc.startNoEarlierThan,
    networkId: doc.kind === 'work' ? networkIdOf(doc) : undefined,
    createdAt: doc.createdAt,
    opId: doc.opId,
  } satisfies Complete<planning.Task>);
}
