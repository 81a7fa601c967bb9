// Tenant exports (ENDPOINTS rows 42–44): an archive of the whole tenant, packaged in the
// background (queued → tables → assets → packaging → ready). Served by exports.ExportService.
// What the archive holds: docs/decisions.md, "Tenant exports".
// Every endpoint of the group, in registry order: one file per path, named after it.
import { createExport, listExports } from './exports.js';
import { getExport } from './exports.id.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const exportEndpoints: EndpointDef[] = [createExport, listExports, getExport];
