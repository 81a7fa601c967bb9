// Projects (spec: Project (job), Project lifecycle, "Projects"). Served by projects.ProjectService.
// Every endpoint of the group, in registry order: one file per path, named after it.
import { listProjects, createProject } from './projects.js';
import { getProject, updateProject } from './projects.id.js';
import { fireProjectLifecycle } from './projects.id.lifecycle.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const projectEndpoints: EndpointDef[] = [
  listProjects,
  getProject,
  createProject,
  updateProject,
  fireProjectLifecycle,
];
