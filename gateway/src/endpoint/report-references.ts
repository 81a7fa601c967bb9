// A saved report's figure filters are list queries, and some name records (a customer, a deal, a
// project). Each named record is checked to exist in the caller's tenant, and a project to be one
// the caller may see, through the owning service's own read, before the report is stored: a report
// must not watch an id that points at nothing. A missing id and another tenant's read the same.
import { AppError, type RequestContext } from '@fieldops/kit';
import { callUnary } from '@fieldops/kit/grpc';
import type { ServiceClients } from '../clients.ts';
import type { Caller } from '../identity/model.ts';

type Reader = (clients: ServiceClients, id: string, ctx: RequestContext) => Promise<unknown>;

/** Filter keys that name a record, with the owning service's read of one. */
const READERS: Record<string, Reader> = {
  customerId: (clients, id, ctx) => callUnary(clients.crm, 'getCustomer', { id }, ctx),
  dealId: (clients, id, ctx) => callUnary(clients.deals, 'getDeal', { id }, ctx),
  projectId: (clients, id, ctx) => callUnary(clients.projects, 'getProject', { id }, ctx),
};

const isNotFound = (err: unknown): boolean => err instanceof AppError && err.code === 'not_found';

async function exists(reader: Reader, clients: ServiceClients, id: string, ctx: RequestContext) {
  try {
    await reader(clients, id, ctx);
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

export async function checkReportReferences(
  figures: readonly { filter?: Record<string, string> | undefined }[],
  caller: Caller | null,
  clients: ServiceClients,
  ctx: RequestContext,
): Promise<void> {
  for (const [index, figure] of figures.entries()) {
    for (const [key, id] of Object.entries(figure.filter ?? {})) {
      const reader = READERS[key];
      if (!reader || id === '') continue;
      const outOfScope = key === 'projectId' && caller?.projectIds && !caller.projectIds.includes(id);
      if (outOfScope || !(await exists(reader, clients, id, ctx))) {
        const field = `figures[${index}].filter.${key}`;
        throw new AppError('field_invalid', `${field}: no record with id ${id} exists in this tenant.`, {
          field,
        });
      }
    }
  }
}
