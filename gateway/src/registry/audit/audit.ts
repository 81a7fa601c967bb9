// GET /api/v1/audit: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./audit.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { pageResponse, pageBody } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { AUDIT_GATHERS } from './audit.schemas.ts';
import { auditEntrySchema, scopeOf, auditListQuery, auditListRequest } from './audit.schemas.ts';

export const listAudit = defineEndpoint({
  operationId: 'listAudit',
  method: 'GET',
  path: '/audit',
  tag: 'Audit',
  summary: "The tenant's audit trail, newest first: who wrote what, with request id and agent headers.",
  description:
    'A project-restricted token sees only the entries about its projects; tenant-level entries (leads, customers, deals, settings) are shown to unrestricted tokens only.',
  auth: 'scope',
  scope: { action: 'read', kind: 'settings' },
  gathers: AUDIT_GATHERS,
  list: true,
  query: auditListQuery,
  response: pageResponse(auditEntrySchema),
  handle: async ({ query, ctx, clients, caller }) => {
    const request = { ...auditListRequest(query), scope: scopeOf(caller) };
    const page = await callUnary(clients.audit, 'listEntries', request, ctx);
    return { body: pageBody(page) };
  },
});
