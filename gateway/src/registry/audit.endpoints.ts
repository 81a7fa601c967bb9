// The tenant's audit trail (ENDPOINTS rows 87–88). Served by audit.AuditService.
import { callUnary } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import { pageQuery, pageResponse, pageBody, pageRequest } from './common.schemas.js';
import { defineEndpoint, type EndpointDef } from './types.js';

export const auditEntrySchema = z.object({
  seq: z.number().int(),
  id: z.string(),
  eventId: z.string(),
  at: z.string(),
  action: z.string().describe('What happened, e.g. lead.created.'),
  operation: z.string().describe('The registry operation that did it, e.g. createLead.'),
  resourceKind: z.string(),
  resourceId: z.string(),
  principalKind: z.string(),
  tokenId: z.string(),
  memberId: z.string(),
  requestId: z.string(),
  idempotencyKey: z.string(),
  agent: z.object({ runId: z.string(), task: z.string(), model: z.string(), confirmedBy: z.string() }),
  prevHash: z.string(),
  hash: z.string(),
  redacted: z
    .boolean()
    .describe(
      'Only in a proof shown to a project-restricted token: an entry about something outside its projects, with only seq, prevHash and hash kept.',
    ),
});

/** A project-restricted caller's projects, for the audit service to scope by (decisions.md, Audit). */
const scopeOf = (caller: { projectIds: string[] | null } | null) =>
  caller?.projectIds ? { projectIds: caller.projectIds } : undefined;

const verifyResult = z.object({
  valid: z.boolean(),
  length: z.number().int(),
  headSeq: z.number().int(),
  headHash: z.string(),
  genesisHash: z.string(),
  brokenAtSeq: z.number().int().optional(),
  problem: z.string().optional(),
  proof: z.array(auditEntrySchema).describe('With entryId: the entries from that entry to the head.'),
});

/** The list's filters; the console's audit page (gateway/src/portal/console-data.router.ts) reads them too. */
export const auditListQuery = z.strictObject({
  ...pageQuery,
  resourceId: z.string().max(100).optional(),
  tokenId: z.string().max(100).optional(),
  action: z.string().max(100).optional(),
  runId: z.string().max(500).optional().describe('X-Agent-Run-Id of the writes to list.'),
});

/** The list request to the audit service from a parsed query. */
export const auditListRequest = (query: z.output<typeof auditListQuery>) => ({
  page: pageRequest(query),
  resourceId: query.resourceId,
  tokenId: query.tokenId,
  action: query.action,
  runId: query.runId,
});

export const auditEndpoints: EndpointDef[] = [
  defineEndpoint({
    operationId: 'listAudit',
    method: 'GET',
    path: '/audit',
    tag: 'Audit',
    summary: "The tenant's audit trail, newest first: who wrote what, with request id and agent headers.",
    description:
      'A project-restricted token sees only the entries about its projects; tenant-level entries (leads, customers, deals, settings) are shown to unrestricted tokens only.',
    auth: 'scope',
    scope: { action: 'read', kind: 'settings' },
    list: true,
    query: auditListQuery,
    response: pageResponse(auditEntrySchema),
    errors: ['field_invalid'],
    handle: async ({ query, ctx, clients, caller }) => {
      const request = { ...auditListRequest(query), scope: scopeOf(caller) };
      const page = await callUnary(clients.audit, 'listEntries', request, ctx);
      return { body: pageBody(page) };
    },
  }),
  defineEndpoint({
    operationId: 'verifyAudit',
    method: 'GET',
    path: '/audit/verify',
    tag: 'Audit',
    summary: 'Verify the hash chain: the head, whether every entry holds, and a proof for one entry.',
    auth: 'scope',
    scope: { action: 'read', kind: 'settings' },
    query: z.strictObject({ entryId: z.string().max(100).optional() }),
    response: verifyResult,
    errors: ['not_found', 'field_invalid'],
    handle: async ({ query, ctx, clients, caller }) => {
      const result = await callUnary(
        clients.audit,
        'verify',
        { entryId: query.entryId, scope: scopeOf(caller) },
        ctx,
      );
      return { body: { ...result } };
    },
  }),
];
