// POST /api/v1/leads/:id/qualify: declared here (route, scope, schemas, errors, handler).
// Schemas shared with the rest of the folder: ./leads.schemas.ts; listed by ../families.gen.ts.
import { callUnary } from '@fieldops/kit/grpc';
import { z } from 'zod';
import { idParams } from '../../endpoint/common.schemas.ts';
import { defineEndpoint } from '../../endpoint/types.ts';
import { writeResult } from '../../endpoint/write-result.ts';
import { qualification } from './leads.schemas.ts';

export const qualifyLead = defineEndpoint({
  operationId: 'qualifyLead',
  method: 'POST',
  path: '/leads/:id/qualify',
  tag: 'Leads',
  summary: 'Read a typed persona (buyer, seller or investor) from the facts the lead stated.',
  description:
    'Answers the persona with the statements it relied on; persona is null when nothing the lead stated points to one. Stores nothing on the lead. Spends one compute run (AI credits) and counts as a write for rate limiting. It cannot be rehearsed: the reading is the work.',
  auth: 'scope',
  scope: { action: 'update', kind: 'lead' },
  params: idParams,
  bucket: 'writes',
  budgets: [{ kind: 'compute', amount: 1 }],
  response: z.object({ qualification }),
  errors: ['not_found'],
  handle: async ({ params, ctx, clients }) => {
    const write = await callUnary(clients.crm, 'qualifyLead', { id: params.id }, ctx);
    const reading = write.qualification;
    return writeResult(
      'qualification',
      reading && { ...reading, persona: reading.persona ?? null },
      write.meta,
    );
  },
});
