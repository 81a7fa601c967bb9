import { pageLimit, readPage, NEWEST_FIRST } from '@fieldops/kit/domain';
import { type RequestContext, AppError, nowIso } from '@fieldops/kit';
import type { DocumentStore, Filter } from '@fieldops/kit/store';
import { requireTenantId } from '@fieldops/kit/write';
import type { projects } from '@fieldops/proto';
import { PROJECTS } from '../collections.ts';
import type { CrmPort } from '../crm/crm.port.ts';
import type { ProjectDoc } from '../projects/project.model.ts';
import { pageLink, type LinkMinter } from './page-links.ts';
import { PAGE_KINDS, verifyPageToken, type PageClaims, type PageKind } from './page-token.ts';

export interface ClientPageDeps extends LinkMinter {
  store: DocumentStore;
  crm: CrmPort;
}

/** Project pages first, then customer pages; the cursor says which list it continues. */
export async function listClientPages(
  deps: ClientPageDeps,
  req: projects.ListClientPagesRequest,
  ctx: RequestContext,
): Promise<projects.ClientPageList> {
  const tenantId = requireTenantId(ctx);
  const kind = kindFilter(req.kind);
  const limit = pageLimit(req.page);
  const cursor = parseCursor(req.page?.cursor ?? '', kind);
  // A project-restricted token sees its projects' pages; a customer page would show the others.
  const customersAllowed = !req.scope && kind !== 'project';
  if (cursor.list === 'customer') return customerPages(deps, tenantId, cursor.at, limit, ctx);

  const filter: Filter = req.scope ? { id: { $in: [...req.scope.ids] } } : {};
  const page = await readPage(() =>
    deps.store.page<ProjectDoc>(PROJECTS, tenantId, {
      filter,
      sort: NEWEST_FIRST,
      limit,
      cursor: cursor.at || undefined,
    }),
  );
  const items = page.items.map((doc) =>
    pageLink(deps, tenantId, { kind: 'project', id: doc.id, title: doc.name }),
  );
  if (page.nextCursor) return { items, nextCursor: `project:${page.nextCursor}` };
  if (!customersAllowed) return { items, nextCursor: '' };
  if (items.length === limit) return { items, nextCursor: 'customer:' };
  const rest = await customerPages(deps, tenantId, '', limit - items.length, ctx);
  return { items: [...items, ...rest.items], nextCursor: rest.nextCursor };
}

async function customerPages(
  deps: ClientPageDeps,
  tenantId: string,
  at: string,
  limit: number,
  ctx: RequestContext,
): Promise<projects.ClientPageList> {
  const page = await deps.crm.listCustomers({ cursor: at, limit }, ctx);
  return {
    items: page.items.map((customer) =>
      pageLink(deps, tenantId, { kind: 'customer', id: customer.id, title: customer.name }),
    ),
    nextCursor: page.nextCursor ? `customer:${page.nextCursor}` : '',
  };
}

/** Assembles the page a link opens. Every way a link can be wrong answers 404: nothing leaks. */
export async function openClientPage(
  deps: ClientPageDeps,
  req: projects.OpenClientPageRequest,
  ctx: RequestContext,
): Promise<projects.ClientPageView> {
  const claims = claimsOf(deps, req.token);
  const pageCtx = linkContext(ctx, claims);
  const projectsShown =
    claims.kind === 'project'
      ? [await projectOf(deps.store, claims)]
      : await customerProjects(deps.store, claims);
  const customerId = claims.kind === 'customer' ? claims.id : (projectsShown[0]?.customerId ?? '');
  const customerName = await deps.crm.customerName(customerId, pageCtx).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'not_found') throw deadLink();
    throw error;
  });
  return {
    kind: claims.kind,
    title: claims.kind === 'project' ? (projectsShown[0]?.name ?? '') : customerName,
    customerName,
    tenantId: claims.tenantId,
    customerId,
    projects: projectsShown.map((doc) => ({
      id: doc.id,
      name: doc.name,
      status: doc.status,
      siteAddress: doc.siteAddress,
      vertical: doc.vertical,
      updatedAt: doc.updatedAt,
    })),
    generatedAt: nowIso(),
    expiresAt: new Date(claims.expiresAt).toISOString(),
  };
}

function claimsOf(deps: ClientPageDeps, token: string): PageClaims {
  const check = verifyPageToken(deps.keys.all, token, deps.now());
  if (check.ok) return check.claims;
  if (check.reason === 'expired') {
    throw new AppError('not_found', 'This link has expired; ask the business that sent it for a new one.', {
      reason: 'expired',
    });
  }
  throw deadLink();
}

async function projectOf(store: DocumentStore, claims: PageClaims): Promise<ProjectDoc> {
  const doc = await store.get<ProjectDoc>(PROJECTS, claims.tenantId, claims.id);
  if (!doc) throw deadLink();
  return doc;
}

/** A customer page lists the customer's projects, newest first (a page shows at most 100). */
const customerProjects = (store: DocumentStore, claims: PageClaims): Promise<ProjectDoc[]> =>
  store.find<ProjectDoc>(
    PROJECTS,
    claims.tenantId,
    { customerId: claims.id },
    {
      sort: NEWEST_FIRST,
      limit: 100,
    },
  );

/** The link is the reader's only credential: it names the tenant and the one page. */
function linkContext(ctx: RequestContext, claims: PageClaims): RequestContext {
  return {
    ...ctx,
    tenant: { id: claims.tenantId, currency: '', defaultVertical: '' },
    principal: {
      kind: 'client_page_link',
      tokenId: `link:${claims.kind}:${claims.id}`,
      role: 'customer',
      memberId: '',
    },
    idempotencyKey: '',
    dryRun: false,
  };
}

function kindFilter(kind: string | undefined): PageKind | undefined {
  if (!kind) return undefined;
  if ((PAGE_KINDS as readonly string[]).includes(kind)) return kind as PageKind;
  throw new AppError('field_invalid_enum', `kind must be one of ${PAGE_KINDS.join(', ')}.`, {
    field: 'kind',
    allowed: [...PAGE_KINDS],
  });
}

function parseCursor(cursor: string, kind: PageKind | undefined): { list: PageKind; at: string } {
  if (!cursor) return { list: kind ?? 'project', at: '' };
  const split = cursor.indexOf(':');
  const list = cursor.slice(0, split);
  if (split < 0 || !(PAGE_KINDS as readonly string[]).includes(list) || (kind && kind !== list)) {
    throw new AppError(
      'field_invalid',
      'cursor is not valid here; pass the nextCursor of the previous page of this same list unchanged.',
      { field: 'cursor' },
    );
  }
  return { list: list as PageKind, at: cursor.slice(split + 1) };
}

const deadLink = (): AppError =>
  new AppError(
    'not_found',
    'This link is not valid, or no longer is; ask the business that sent it for a new one.',
  );
