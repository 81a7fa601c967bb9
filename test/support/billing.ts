// What the proposal and invoice HTTP tests share: the confirmation round trip, and the platform's
// own side of billing that no API token reaches — the customer's link (read from the email the
// platform queued) and the payment a member or the payment provider records. Both are called over
// the crm service's real gRPC services, exactly as the portal and the client pages call them.
// Also the suites' common start (a tenant with one customer) and the walk of a declared status
// machine: what a move fired through the API must answer (the path to a status is contracts's).
import { afterAll, expect } from '@jest/globals';
import { systemContext, type RequestContext } from '@fieldops/kit';
import { callUnary, connectClient } from '@fieldops/kit/grpc';
import { PLATFORM_TENANT } from '@fieldops/kit/store';
import { billing } from '@fieldops/proto';
import { suiteTenant } from './suite-tenant.ts';
import type { ApiRequestPath, Body, Client, Reply, TestPlatform } from './harness.ts';

/** Sends a write that needs confirmation: the first answer must be 409, then re-sends with its token. */
export async function confirmed(
  api: Client,
  path: ApiRequestPath,
  body: unknown = {},
): Promise<{ first: Reply<Body>; final: Reply<Body> }> {
  const first = await api.post(path, body);
  if (first.status !== 409 || first.body.code !== 'confirmation_required') return { first, final: first };
  const final = await api.post(path, body, {
    [String(first.body.confirmHeader)]: String(first.body.confirmToken),
  });
  return { first, final };
}

export interface PlatformSide {
  /** The link token in the newest email queued about a proposal or invoice. */
  linkTokenOf(tenantId: string, aboutId: string): Promise<string>;
  messagesAbout(tenantId: string, aboutId: string): Promise<billing.OutboundMessage[]>;
  open(token: string): Promise<billing.ClientProposal>;
  sign(token: string, signerName?: string): Promise<billing.ClientProposal>;
  decline(token: string, reason?: string): Promise<billing.ClientProposal>;
  openInvoice(token: string): Promise<billing.ClientInvoice>;
  recordPayment(
    tenantId: string,
    request: Partial<billing.RecordPaymentRequest> & { invoiceId: string; amountCents: number },
    principalKind?: string,
  ): Promise<billing.InvoiceWrite>;
  close(): void;
}

/**
 * A client page knows no tenant before the link is verified: it sends the platform placeholder
 * (every call must name a tenant), and the crm service takes the real one from the link.
 */
const linkContext = (): RequestContext => ({
  ...systemContext({ id: PLATFORM_TENANT, currency: '', defaultVertical: '' }, 'clientPage'),
  principal: undefined,
});

export function platformSide(platform: TestPlatform): PlatformSide {
  const address = platform.serviceAddress('crm');
  const links = connectClient(billing.ClientLinkServiceClient, address);
  const mail = connectClient(billing.MailOutboxServiceClient, address);
  const invoices = connectClient(billing.InvoiceServiceClient, address);
  const tenantCtx = (tenantId: string, kind = 'system'): RequestContext => ({
    ...systemContext({ id: tenantId, currency: '', defaultVertical: '' }, 'recordPayment'),
    principal: { kind, tokenId: kind === 'token' ? 'tok_x' : '', role: '', memberId: 'mem_books' },
  });
  const messagesAbout: PlatformSide['messagesAbout'] = async (tenantId, aboutId) => {
    const page = await callUnary(mail, 'listOutboundMessages', { aboutId }, tenantCtx(tenantId));
    return page.items;
  };
  return {
    messagesAbout,
    linkTokenOf: async (tenantId, aboutId) => {
      const [newest] = await messagesAbout(tenantId, aboutId);
      const token = new URL(`http://x${newest?.linkPath ?? ''}`).searchParams.get('token');
      if (!token) throw new Error(`no link was emailed about ${aboutId}`);
      return token;
    },
    open: (token) => callUnary(links, 'openProposal', { token }, linkContext()),
    sign: (token, signerName = 'Dana Customer') =>
      callUnary(
        links,
        'signProposal',
        { token, signerName, ip: '203.0.113.9', userAgent: 'test' },
        linkContext(),
      ),
    decline: (token, reason) => callUnary(links, 'declineProposal', { token, reason }, linkContext()),
    openInvoice: (token) => callUnary(links, 'openInvoice', { token }, linkContext()),
    recordPayment: (tenantId, request, principalKind = 'system') =>
      callUnary(
        invoices,
        'recordPayment',
        { method: 'bank_transfer', ...request },
        tenantCtx(tenantId, principalKind),
      ),
    close: () => [links, mail, invoices].forEach((client) => client.close()),
  };
}

/** A tenant on a fresh platform with one customer, as both billing suites start. */
export interface BillingTenant {
  platform: TestPlatform;
  side: PlatformSide;
  tenantId: string;
  api: Client;
  customerId: string;
  /** A fresh Manager token of the tenant: each has its own emails budget. */
  freshApi(): Promise<Client>;
}

/** Awaited at the top of a billing suite; the platform and its side are closed after the file's tests. */
export async function startBillingTenant(
  emailsPerHour: number,
  tenantName: string,
  customer: { name: string; email: string },
): Promise<BillingTenant> {
  const { platform, tenantId, api } = await suiteTenant(tenantName, {
    FIELDOPS_BUDGET_EMAILS: String(emailsPerHour),
  });
  const side = platformSide(platform);
  afterAll(() => side.close());
  const created = await api.post('/customers', customer);
  return {
    platform,
    side,
    tenantId,
    api,
    customerId: (created.body.customer as Body).id as string,
    freshApi: async () => (await platform.token(tenantId, { role: 'Manager' })).api,
  };
}

/**
 * What a trigger fired through the API from `from` must answer, by the declared machine: replayed
 * when already at `to`, the move when legal, else 409 conflict with the legal triggers and the
 * document left where it was (`statusNow` reads it again).
 */
export async function expectDeclaredMove(
  reply: { status: number; body: Body },
  move: { from: string; to: string; legal: boolean; legalTriggers: readonly string[]; name: string },
  statusNow: () => Promise<string>,
): Promise<void> {
  if (move.from === move.to) {
    expect([reply.status, reply.body.replayed]).toEqual([200, true]);
  } else if (move.legal) {
    expect(reply.status).toBe(200);
    expect((reply.body[move.name] as Body).status).toBe(move.to);
  } else {
    expect([reply.status, reply.body.code]).toEqual([409, 'conflict']);
    expect(reply.body.legalTriggers).toEqual(move.legalTriggers);
    expect(await statusNow()).toBe(move.from);
  }
}
