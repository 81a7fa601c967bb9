// Tasks (GET/POST /tasks): read and file operational tasks for the member the token is bound to.
// Both need that binding (409 principal_unbound otherwise): a task always belongs to a person.
import { TASK_DAYS_MAX, TASK_FIELD_LIMITS, TASK_PREDECESSORS_MAX } from '@fieldops/contracts';
import {
  createEffect,
  eventEffect,
  checkLengths,
  checkMaximums,
  cleanText,
  compact,
  itemJson,
  listRpcOf,
  NEWEST_FIRST,
} from '@fieldops/kit/domain';
import { type RequestContext, AppError, notFound, newId, nowIso } from '@fieldops/kit';
import type { DocumentStore, Filter } from '@fieldops/kit/store';
import { requireMemberId, writeRpc } from '@fieldops/kit/write';
import { planning } from '@fieldops/proto';
import { TASKS } from '../planning.collections.ts';
import { emitPlanningEvent } from '../planning.events.ts';
import { loadProject } from '../projects/projects.service.ts';
import { MAX_PROJECT_TASKS, parseDependency } from '../schedule/network.ts';
import { loadProjectNetwork, networkOf } from './project-network.ts';
import { topologicalOrder } from '../schedule/topological-order.ts';
import { TASK_KINDS, toNetworkTask, toTaskView, type TaskDoc, type TaskKind } from './task.model.ts';

/** A task in items_json; one function for the process, so the store remembers its renderings. */
const TASK_JSON = itemJson(toTaskView, planning.Task);

/** The member the token is bound to, or 409 principal_unbound. */
export const requireMember = (ctx: RequestContext): string => requireMemberId(ctx, 'Tasks');

/** The member's own tasks, newest first. */
function taskFilter(req: planning.ListTasksRequest, ctx: RequestContext): Filter {
  const filter: Filter = { memberId: requireMember(ctx) };
  if (req.projectId) filter['projectId'] = req.projectId;
  if (req.kind) filter['kind'] = req.kind;
  // A project-restricted token sees its projects' tasks and the member's tasks of no project.
  if (req.scope) filter.$or = [{ projectId: { $in: [...req.scope.ids] } }, { projectId: null }];
  return filter;
}

export const listTasks = listRpcOf(TASKS, { filter: taskFilter, sort: NEWEST_FIRST }, toTaskView, TASK_JSON);

export async function createTask(
  store: DocumentStore,
  req: planning.CreateTaskRequest,
  ctx: RequestContext,
): Promise<planning.TaskWrite> {
  const memberId = requireMember(ctx);
  const kind = taskKind(req.kind);
  return writeRpc(store, ctx, 'task', {
    operation: 'createTask',
    fingerprint: req,
    plan: async (tenantId) => {
      const doc = await plannedTask(store, tenantId, memberId, kind, req);
      return {
        ops: [
          { op: 'insert', collection: TASKS, doc },
          emitPlanningEvent(
            ctx,
            'task.created',
            { kind: 'task', id: doc.id },
            { kind, projectId: doc.projectId },
          ),
        ],
        result: toTaskView(doc),
        created: true,
        rehearsal: {
          willDo: `File the ${kind} task "${doc.title}" for member ${memberId}.`,
          effects: [
            createEffect('task', doc.id, [{ field: 'title', to: doc.title }]),
            eventEffect('task.created', doc.id),
          ],
        },
      };
    },
  });
}

function taskKind(kind: string): TaskKind {
  if ((TASK_KINDS as readonly string[]).includes(kind)) return kind as TaskKind;
  throw new AppError('field_invalid_enum', `kind must be one of ${TASK_KINDS.join(', ')}.`, {
    field: 'kind',
  });
}

const required = (field: string, why: string): AppError =>
  new AppError('field_required', `${field} is required ${why}.`, { field });

async function plannedTask(
  store: DocumentStore,
  tenantId: string,
  memberId: string,
  kind: TaskKind,
  req: planning.CreateTaskRequest,
): Promise<TaskDoc> {
  checkLengths(TASK_FIELD_LIMITS, req);
  checkMaximums({ durationDays: TASK_DAYS_MAX, predecessors: TASK_PREDECESSORS_MAX }, req);
  const title = cleanText(req.title);
  if (!title) throw required('title', 'for every task');
  if (kind === 'visit' && !req.projectId) throw required('projectId', 'for a visit (the site visited)');
  if (kind === 'visit' && !req.dueDate) throw required('dueDate', 'for a visit (the day of the visit)');
  if (kind === 'work' && !req.projectId)
    throw required('projectId', 'for work (the project it is scheduled in)');
  if (kind === 'work' && req.durationDays === undefined) throw required('durationDays', 'for work');
  // Outside a project-restricted token's list a project does not exist, as for another tenant's.
  if (req.projectId && req.scope && !req.scope.ids.includes(req.projectId))
    throw notFound('project', req.projectId);
  const project = req.projectId ? await loadProject(store, tenantId, req.projectId) : undefined;
  const doc: TaskDoc = compact({
    id: newId('task'),
    tenantId,
    version: 1,
    memberId,
    kind,
    title,
    projectId: project?.id,
    dueDate: req.dueDate,
    notes: cleanText(req.notes),
    status: 'open' as const,
    createdAt: nowIso(),
    opId: req.opId,
  });
  if (kind !== 'work' || !project) return doc;
  const work: TaskDoc = compact({
    ...doc,
    durationDays: req.durationDays,
    predecessors: req.predecessors.map(parseDependency),
    replacesTemplateTask: req.replacesTemplateTask,
    startNoEarlierThan: req.startNoEarlierThan,
  });
  await checkFitsNetwork(store, tenantId, project, work);
  return work;
}

/**
 * A work task must fit its project's network: its predecessors exist, what it replaces is a task
 * of the template, and it closes no cycle. Refusing here keeps every stored network schedulable,
 * since tasks cannot be amended through the API.
 */
async function checkFitsNetwork(
  store: DocumentStore,
  tenantId: string,
  project: { id: string; vertical: string },
  task: TaskDoc,
): Promise<void> {
  const loaded = await loadProjectNetwork(store, tenantId, project);
  if (loaded.projectTasks.length >= MAX_PROJECT_TASKS) {
    throw new AppError(
      'conflict',
      `Project ${project.id} already has ${MAX_PROJECT_TASKS} work tasks, the most a schedule takes.`,
    );
  }
  const replaces = task.replacesTemplateTask;
  if (replaces && !loaded.template.tasks.some((templateTask) => templateTask.id === replaces)) {
    throw new AppError(
      'field_invalid',
      `replacesTemplateTask ${replaces} is not a task of template ${loaded.template.id} (${loaded.template.tasks.map((t) => t.id).join(', ')}).`,
      { field: 'replacesTemplateTask' },
    );
  }
  const known = new Set([...loaded.template.tasks, ...loaded.projectTasks].map((t) => t.id).concat(task.id));
  const missing = (task.predecessors ?? []).find(({ taskId }) => !known.has(taskId));
  if (missing) {
    throw new AppError(
      'field_invalid',
      `predecessors: ${missing.taskId} is not a task of project ${project.id}; use a template task id or a work task's networkId.`,
      { field: 'predecessors' },
    );
  }
  topologicalOrder(networkOf(loaded, [toNetworkTask(task)]));
}
