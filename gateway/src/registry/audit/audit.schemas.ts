// The tenant's audit trail (ENDPOINTS rows 87–88). Served by audit.AuditService.
// The schemas and helpers the endpoint files of this folder share; each endpoint is declared in
// the file named after its path.
import { AUDIT_FILTER_LIMITS as MAX } from '@fieldops/contracts';
import { z } from 'zod';
import { KINDS } from '../../identity/scopes.ts';
import type { GatherRule } from '../../endpoint/types.ts';
import { pageQuery, pageRequest } from '../../endpoint/common.schemas.ts';
import { auditEntrySchema, verifyResult } from './audit.gen.ts';

// An entry's and a verification's shapes are derived from audit.proto (npm run gen).
export { auditEntrySchema, verifyResult };

/** A project-restricted caller's projects, for the audit service to scope by (decisions.md, Audit). */
export const scopeOf = (caller: { projectIds: string[] | null } | null) =>
  caller?.projectIds ? { projectIds: caller.projectIds } : undefined;

/** The list's filters; the console's audit page (gateway/src/portal/console-data.router.ts) reads them too. */
export const auditListQuery = z.strictObject({
  ...pageQuery,
  resourceId: z.string().max(MAX.resourceId).optional(),
  tokenId: z.string().max(MAX.tokenId).optional(),
  action: z.string().max(MAX.action).optional(),
  runId: z.string().max(MAX.runId).optional().describe('X-Agent-Run-Id of the writes to list.'),
});

/** The list request to the audit service from a parsed query. */
export const auditListRequest = (query: z.output<typeof auditListQuery>) => ({
  page: pageRequest(query),
  resourceId: query.resourceId,
  tokenId: query.tokenId,
  action: query.action,
  runId: query.runId,
});

/**
 * The trail records writes to every kind, with the agent's free text: a narrowed token that cannot
 * read all of them is refused; a project-restricted one sees its projects' entries only (the audit
 * service filters by scopeOf). docs/decisions.md, "Cross-cutting reads".
 */
export const AUDIT_GATHERS: GatherRule = { kinds: KINDS, byKind: 'require', byProject: 'filter' };
