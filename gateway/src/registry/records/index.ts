// Project records (spec: Project record, Project records states, "Project records"). Served by
// projects.ProjectRecordService. Bodies are discriminated on kind: the fields each kind takes
// and requires are declared in contracts (RECORD_KIND_FIELDS) and enforced by the service, which
// answers unknown_field for a field of another kind and field_required for a missing one.
// Every endpoint of the group, in registry order: one file per path, named after it.
import { listProjectRecords, createProjectRecord } from './projects.id.records.js';
import { getProjectRecord, updateProjectRecord } from './projects.id.records.recordId.js';
import { voidProjectRecord } from './projects.id.records.recordId.void.js';
import { unvoidProjectRecord } from './projects.id.records.recordId.unvoid.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const recordEndpoints: EndpointDef[] = [
  listProjectRecords,
  createProjectRecord,
  getProjectRecord,
  updateProjectRecord,
  voidProjectRecord,
  unvoidProjectRecord,
];
