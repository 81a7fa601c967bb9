// The tenant's audit trail (ENDPOINTS rows 87–88). Served by audit.AuditService.
// Every endpoint of the group, in registry order: one file per path, named after it.
import { listAudit } from './audit.js';
import { verifyAudit } from './audit.verify.js';
import type { EndpointDef } from '../../endpoint/types.js';

export const auditEndpoints: EndpointDef[] = [listAudit, verifyAudit];
