import { type RequestContext, AppError } from '@fieldops/kit';
import { callUnary } from '@fieldops/kit/grpc';
import type { capture, crm, measurements, projects } from '@fieldops/proto';
import type { ServiceClients } from '../clients.ts';
import { projectSceneContent, type DeliverableManifest } from '../endpoint/project-scenes.ts';

const CAPTURES_SHOWN = 20;
/** Proposals and invoices a customer has nothing more to do with, and drafts they never saw. */
const NOT_OPEN = new Set(['draft', 'accepted', 'declined', 'expired', 'withdrawn', 'paid', 'void', 'voided']);

export interface ProjectDetails {
  captures: { id: string; capturedAt: string; status: string }[];
  deliverables: DeliverableManifest[];
  latestScene: capture.Scene | null;
  quantities: measurements.QuantitiesSnapshot | null;
}

export interface CustomerDetails {
  proposals: crm.RelatedRecord[];
  invoices: crm.RelatedRecord[];
}

/** The link's context: the verified tenant, a customer principal, nothing else. */
export function linkReadContext(ctx: RequestContext, view: projects.ClientPageView): RequestContext {
  return { ...ctx, tenant: { id: view.tenantId, currency: '', defaultVertical: '' } };
}

const orNull = async <T>(read: Promise<T>): Promise<T | null> => {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return null;
    throw error;
  }
};

export async function projectDetails(
  clients: ServiceClients,
  projectId: string,
  ctx: RequestContext,
): Promise<ProjectDetails> {
  const [captures, content, scenes, quantities] = await Promise.all([
    callUnary(
      clients.capture,
      'listCaptures',
      { projectIds: [projectId], page: { cursor: '', limit: CAPTURES_SHOWN } },
      ctx,
    ),
    projectSceneContent(clients, projectId, ctx),
    callUnary(clients.capture, 'listScenes', { projectId, page: { cursor: '', limit: 1 } }, ctx),
    orNull(callUnary(clients.measurements, 'getQuantities', { projectId }, ctx)),
  ]);
  return {
    captures: captures.items
      .filter((session) => session.finalizedAt)
      .map((session) => ({ id: session.id, capturedAt: session.finalizedAt, status: session.status })),
    deliverables: content.deliverables,
    latestScene: scenes.items[0] ?? null,
    quantities,
  };
}

export async function customerDetails(
  clients: ServiceClients,
  customerId: string,
  ctx: RequestContext,
): Promise<CustomerDetails> {
  const customer = await callUnary(clients.crm, 'getCustomer', { id: customerId }, ctx);
  const open = (records: crm.RelatedRecord[] = []) =>
    records.filter((record) => !NOT_OPEN.has(record.status));
  return { proposals: open(customer.related?.proposals), invoices: open(customer.related?.invoices) };
}
