// A project's task network: its vertical's template, with the project's work tasks replacing
// template tasks of the same id or added to them.
import type { DocumentStore } from '@fieldops/kit/store';
import { TASKS } from '../planning.collections.ts';
import type { ProjectDoc } from '../projects/project.model.ts';
import { toNetworkTask, type TaskDoc } from './task.model.ts';
import { templateForVertical, type Template } from '../templates/templates.ts';
import { buildNetwork, type NetworkTask, type TaskDefinition } from '../schedule/network.ts';

export interface ProjectNetwork {
  template: Template;
  projectTasks: TaskDefinition[];
}

export async function loadProjectNetwork(
  store: DocumentStore,
  tenantId: string,
  project: Pick<ProjectDoc, 'id' | 'vertical'>,
): Promise<ProjectNetwork> {
  const work = await store.find<TaskDoc>(
    TASKS,
    tenantId,
    { projectId: project.id, kind: 'work' },
    { sort: { field: 'createdAt', direction: 'asc' } },
  );
  return { template: templateForVertical(project.vertical), projectTasks: work.map(toNetworkTask) };
}

/** The network to schedule (throws the 409s of buildNetwork). */
export const networkOf = (loaded: ProjectNetwork, extra: TaskDefinition[] = []): NetworkTask[] =>
  buildNetwork(loaded.template.tasks, [...loaded.projectTasks, ...extra]);
