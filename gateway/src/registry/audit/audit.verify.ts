// GET /api/v1/audit/verify: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./audit.schemas.ts; listed by ../families.gen.ts.
import { ID_REF_MAX } from '@fieldops/contracts';
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { defineEndpoint } from '../../endpoint/types.ts';
import { AUDIT_GATHERS } from './audit.schemas.ts';
import { scopeOf, verifyResult } from './audit.schemas.ts';

export const verifyAudit = defineEndpoint({
  operationId: 'verifyAudit',
  method: 'GET',
  path: '/audit/verify',
  tag: 'Audit',
  summary: 'Verify the hash chain: the head, whether every entry holds, and a proof for one entry.',
  auth: 'scope',
  scope: { action: 'read', kind: 'settings' },
  gathers: AUDIT_GATHERS,
  query: z.strictObject({ entryId: z.string().max(ID_REF_MAX).optional() }),
  response: verifyResult,
  errors: ['not_found'],
  handle: async ({ query, ctx, clients, caller }) => {
    const result = await callUnary(
      clients.audit,
      'verify',
      { entryId: query.entryId, scope: scopeOf(caller) },
      ctx,
    );
    return { body: { ...result } };
  },
});
