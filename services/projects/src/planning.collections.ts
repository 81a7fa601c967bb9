// The collections of the planning side of the projects service (permits, settings, tasks, site
// preparation), each with the indexes its queries use.
import type { CollectionSpec, DocumentStore } from '@fieldops/kit/store';

/** One document per project (id = project id): the project's permit override. */
export const PERMIT_OVERRIDES = 'permit_overrides';
/** One document per tenant (id = PLANNING_SETTINGS_ID): permit defaults and the work calendar. */
export const PLANNING_SETTINGS = 'planning_settings';
export const PLANNING_SETTINGS_ID = 'planning_settings';
export const TASKS = 'tasks';
/** One document per project (id = project id): what capture reported about preparing the site. */
export const SITE_PREPARATION = 'site_preparation';

export const PLANNING_COLLECTIONS: readonly CollectionSpec[] = [
  { name: PERMIT_OVERRIDES },
  { name: PLANNING_SETTINGS },
  {
    name: TASKS,
    // A member's list (by kind or project), a project's work tasks (its network), a day's visits.
    indexes: [
      ['memberId', 'createdAt'],
      ['memberId', 'kind', 'createdAt'],
      ['memberId', 'projectId', 'createdAt'],
      ['projectId', 'kind', 'createdAt'],
      ['kind', 'dueDate', 'createdAt'],
    ],
  },
  { name: SITE_PREPARATION },
];

export async function definePlanningCollections(store: DocumentStore): Promise<void> {
  for (const spec of PLANNING_COLLECTIONS) await store.define(spec);
}
