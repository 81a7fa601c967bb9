// What the proposal and invoice endpoints share: both are priced documents of a customer (or a
// deal), listed with the same filters, amended only as drafts the same way, moved by POST actions
// on their status machine, and answered with the document and, when the write made or tried one,
// the deal move. What differs (the schemas, the date field, the actions) stays in their files.
import { BILLING_DOCUMENT_FIELD_LIMITS as MAX, ID_REF_MAX } from '@fieldops/contracts';
import type { ErrorCode } from '@fieldops/kit';
import { z } from 'zod';
import { dealMove, email, lineInputs, note, notes, title } from './billing.schemas.ts';
import { idParams, pageQuery, pageRequest, pageResponse, writeResponse } from './common.schemas.ts';
import { moveEndpoint } from './move-endpoint.ts';
import type { ConfirmationPolicy, HandlerResult } from './types.ts';
import { writeResult } from './write-result.ts';

/** One kind of billing document, as its endpoints name it. */
export interface BillingDocument {
  /** The member a write answers it under: `proposal` or `invoice`. */
  name: 'proposal' | 'invoice';
  /** The collection path, e.g. `/proposals`. */
  path: string;
  tag: string;
  schema: z.ZodType;
  moves: Readonly<Record<string, readonly string[]>>;
}

export const billingWriteResponse = (doc: BillingDocument) =>
  writeResponse(doc.name, doc.schema).extend({ dealMove: dealMove.optional() });

/** The write's HTTP answer, with the deal move when the write made (or tried) one. */
export function billingWriteResult(
  doc: BillingDocument,
  record: object | undefined,
  write: { meta?: Parameters<typeof writeResult>[2]; dealMove?: object },
): HandlerResult {
  const result = writeResult(doc.name, record, write.meta);
  if (write.dealMove) result.body.dealMove = write.dealMove;
  return result;
}

/** List filters: status, customer and deal, on top of the page. */
const billingListQuery = <const S extends readonly [string, ...string[]]>(statuses: S) =>
  z.strictObject({
    ...pageQuery,
    status: z.enum(statuses).optional(),
    customerId: z.string().max(ID_REF_MAX).optional(),
    dealId: z.string().max(ID_REF_MAX).optional(),
  });

export const billingListRequest = <S extends string>(query: {
  status?: S | undefined;
  customerId?: string | undefined;
  dealId?: string | undefined;
}) => ({
  page: pageRequest(query),
  status: query.status,
  customerId: query.customerId,
  dealId: query.dealId,
});

/**
 * Each declaring file writes its endpoint's path literally, so a search for the path finds it;
 * the helper checks it is the one the document's collection implies.
 */
function literalPath(path: string, expected: string): string {
  if (path !== expected) throw new Error(`${path} is declared where ${expected} is built.`);
  return path;
}

/** Where a document endpoint lives and who may call it: deal scope, `action` on the document. */
function documentEndpoint(
  doc: BillingDocument,
  path: string,
  expected: string,
  action: 'read' | 'create' | 'update',
) {
  return {
    path: literalPath(path, expected),
    tag: doc.tag,
    auth: 'scope' as const,
    scope: { action, kind: 'deal' as const },
  };
}

/** The declaration of GET <path>, but for its summary, description and handler. */
export function listDocumentsEndpoint<const S extends readonly [string, ...string[]]>(
  doc: BillingDocument,
  path: string,
  statuses: S,
) {
  return {
    method: 'GET' as const,
    ...documentEndpoint(doc, path, doc.path, 'read'),
    list: true,
    query: billingListQuery(statuses),
    response: pageResponse(doc.schema),
  };
}

/** The declaration of GET <path>/:id, but for its summary and handler. */
export function readDocumentEndpoint(doc: BillingDocument, path: string) {
  return {
    method: 'GET' as const,
    ...documentEndpoint(doc, path, `${doc.path}/:id`, 'read'),
    params: idParams,
    response: z.object({ [doc.name]: doc.schema, etag: z.string(), legalTriggers: z.array(z.string()) }),
    errors: ['not_found'] satisfies ErrorCode[],
  };
}

/** A read answers the document's etag both in the body and as the ETag header. */
export function billingReadResult(detail: object, record: { etag?: string } | undefined): HandlerResult {
  const etag = record?.etag ?? '';
  return { body: { ...detail, etag }, etag };
}

/** Who a new draft is for: the customer, the deal, or both (a deal belongs to its customer). */
export const draftOwnerFields = {
  customerId: z.string().trim().min(1).max(MAX.customerId).optional(),
  dealId: z.string().trim().min(1).max(MAX.dealId).optional(),
};

/**
 * The declaration of POST <path> that creates a draft, but for its summary, body and handler: the
 * customer or deal it names may not exist.
 */
export function createDraftEndpoint(doc: BillingDocument, path: string) {
  return {
    method: 'POST' as const,
    ...documentEndpoint(doc, path, doc.path, 'create'),
    idempotent: true,
    dryRun: true,
    response: billingWriteResponse(doc),
    errors: ['not_found'] satisfies ErrorCode[],
  };
}

/** The body of an action that emails the customer their link (send, issue). */
export const customerEmailBody = z.strictObject({
  message: note.optional().describe('A note put above the link in the email.'),
});

/** The PATCH body of a draft: the fields both take, then the document's own date field. */
export const amendDraftBody = <E extends z.ZodRawShape>(dateField: E) =>
  z.strictObject({
    title: title.optional(),
    lines: lineInputs.optional(),
    notes: notes.optional(),
    recipientEmail: email.or(z.literal('')).optional().describe('An empty string clears it.'),
    ...dateField,
  });

/** The amend request: `lines` replaces every line, so the service is told whether any were sent. */
export const amendDraftRequest = <B extends { lines?: unknown[] | undefined }>(
  id: string,
  body: B,
  ifMatch: string,
) => ({
  ...body,
  id,
  ifMatch,
  lines: body.lines ?? [],
  hasLines: body.lines !== undefined,
});

/** The declaration of PATCH <path>/:id, but for its summary, description and handler. */
export function amendDraftEndpoint<E extends z.ZodRawShape>(
  doc: BillingDocument,
  path: string,
  dateField: E,
) {
  return {
    method: 'PATCH' as const,
    ...documentEndpoint(doc, path, `${doc.path}/:id`, 'update'),
    params: idParams,
    amending: true,
    dryRun: true,
    body: amendDraftBody(dateField),
    bodyRequiresOneOf: ['title', 'lines', 'notes', 'recipientEmail', ...Object.keys(dateField)],
    response: billingWriteResponse(doc),
    errors: ['not_found'] satisfies ErrorCode[],
  };
}

/** The declaration of POST <path>/:id/<action> that moves the document's status, but for the rest. */
export const documentActionEndpoint = (doc: BillingDocument, path: string) =>
  moveEndpoint(
    {
      path: doc.path,
      tag: doc.tag,
      kind: 'deal',
      machine: { field: 'status', moves: doc.moves },
      response: billingWriteResponse(doc),
    },
    path,
  );

/**
 * The declaration of POST <path>/:id/<action> that emails the customer their link (proposals send,
 * invoices issue): a move the caller confirms first, spending one email, but for its id, words and
 * handler, which sends `{ id, message }`.
 */
export const customerEmailActionEndpoint = (
  doc: BillingDocument,
  path: string,
  effect: ConfirmationPolicy['effect'],
) => ({
  ...documentActionEndpoint(doc, path),
  confirm: { effect },
  budgets: [{ kind: 'emails' as const, amount: 1 }],
  body: customerEmailBody,
});
