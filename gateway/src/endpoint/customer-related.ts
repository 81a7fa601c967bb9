// What the single customer read shows from other services. crm owns the customer, its deals and
// its billing; projects belong to the projects service and capture sessions to the capture
// service, so the gateway asks them (over gRPC, never by reading their collections) and shows only
// what the caller could read itself: nothing of a kind its token cannot read, and only its own
// projects (and their captures) for a project-restricted token.
import type { RequestContext } from '@fieldops/kit';
import { callUnary } from '@fieldops/kit/grpc';
import type { crm } from '@fieldops/proto';
import type { ServiceClients } from '../clients.ts';
import { authorize } from '../identity/authorize.ts';
import type { Caller } from '../identity/model.ts';

/** The customer read lists at most this many projects, and this many captures, newest first. */
export const CUSTOMER_RELATED_SHOWN = 100;

export interface CustomerRelated {
  projects: crm.RelatedRecord[];
  captures: crm.RelatedRecord[];
}

export async function customerRelated(
  clients: ServiceClients,
  caller: Caller | null,
  customerId: string,
  ctx: RequestContext,
): Promise<CustomerRelated> {
  const projects = await customerProjects(clients, caller, customerId, ctx);
  const captures = await customerCaptures(clients, caller, projects, ctx);
  return { projects, captures };
}

async function customerProjects(
  clients: ServiceClients,
  caller: Caller | null,
  customerId: string,
  ctx: RequestContext,
): Promise<crm.RelatedRecord[]> {
  if (!caller || !authorize(caller, { action: 'read', kind: 'job' }).allowed) return [];
  const page = await callUnary(
    clients.projects,
    'listProjects',
    {
      page: { cursor: '', limit: CUSTOMER_RELATED_SHOWN },
      customerId,
      scope: caller.projectIds ? { ids: caller.projectIds } : undefined,
    },
    ctx,
  );
  return page.items.map((project) => ({
    id: project.id,
    kind: 'project',
    status: project.status,
    name: project.name,
    updatedAt: project.updatedAt,
  }));
}

/** Capture sessions of the customer's projects the caller can see, when it may read captures. */
async function customerCaptures(
  clients: ServiceClients,
  caller: Caller | null,
  projects: crm.RelatedRecord[],
  ctx: RequestContext,
): Promise<crm.RelatedRecord[]> {
  if (!caller || projects.length === 0) return [];
  const projectNames = new Map(projects.map((project) => [project.id, project.name]));
  if (!authorize(caller, { action: 'read', kind: 'capture' }).allowed) return [];
  const page = await callUnary(
    clients.capture,
    'listCaptures',
    { projectIds: [...projectNames.keys()], page: { cursor: '', limit: CUSTOMER_RELATED_SHOWN } },
    ctx,
  );
  return page.items.map((session) => ({
    id: session.id,
    kind: 'capture',
    status: session.status,
    // Which of the customer's projects it captured: the name the project list just gave.
    name: projectNames.get(session.projectId),
    updatedAt: session.updatedAt,
  }));
}

/**
 * crm's own part of `related` (deals, and the proposals, invoices and money rollup that belong to
 * them: scope deal) for a token that cannot read deals: empty lists and no rollup, as the other
 * kinds above are left out.
 */
export function withoutUnreadBilling<
  R extends { deals: unknown[]; proposals: unknown[]; invoices: unknown[] },
  M,
>(
  caller: Caller | null,
  related: R | undefined,
  rollup: M | undefined,
): { related: R | undefined; rollup: M | null | undefined } {
  if (!caller || authorize(caller, { action: 'read', kind: 'deal' }).allowed) return { related, rollup };
  return { related: related && { ...related, deals: [], proposals: [], invoices: [] }, rollup: null };
}
