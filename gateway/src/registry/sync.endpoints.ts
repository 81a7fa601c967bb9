// The sync feed and discovery (ENDPOINTS rows 77–78), served by the gateway itself: GET /changes
// reads the change-feed projection (gateway/src/sync), GET /resources describes the kinds from
// this same registry.
import { CHANGES_KINDS_MAX } from '@fieldops/contracts';
import { AppError } from '@fieldops/kit';
import { z } from 'zod';
import type { authorize as authorizeFn } from '../identity/authorize.ts';
import type { Caller } from '../identity/model.ts';
import { isKind, KINDS } from '../identity/scopes.ts';
import { decodeChangeCursor, encodeChangeCursor } from '../sync/change-cursor.ts';
import { CHANGE_ACTIONS } from '../sync/change-of-event.ts';
import type { ChangeFeed, ChangeVisibility } from '../sync/change-feed.ts';
import { buildResourceCatalogue, type ResourceKind } from '../endpoint/resource-catalogue.ts';
import { pageQuery } from '../endpoint/common.schemas.ts';
import { defineEndpoint, type EndpointDef } from '../endpoint/types.ts';

export interface SyncDeps {
  authorize: typeof authorizeFn;
  /** The change feed; absent in gateways built without one (pipeline tests): /changes is unavailable. */
  changes?: ChangeFeed;
}

const changeSchema = z.object({
  seq: z.number().int().describe('Position in the tenant feed; grows by one per change.'),
  kind: z.string().describe('The resource kind, as GET /resources names it.'),
  id: z.string(),
  action: z.enum(CHANGE_ACTIONS),
  type: z.string().describe('The event behind the change, e.g. deal.stage_changed.'),
  etag: z
    .string()
    .nullable()
    .describe('The etag after the change, when known: skip the read if yours matches.'),
  projectId: z.string().nullable(),
  at: z.string(),
});

const fieldSchema = z.object({
  name: z.string(),
  type: z.string(),
  required: z.boolean(),
  enum: z.array(z.unknown()).optional(),
  description: z.string().optional(),
});

const resourceSchema = z.object({
  kind: z.string(),
  member: z
    .string()
    .describe('The member of the read’s response holding the resource (session for capture).'),
  scopeKind: z.string().describe('The scope kind a token needs read on, to read it and see its changes.'),
  projectScoped: z.boolean().describe('A project-restricted token sees only its projects’ resources.'),
  readable: z.boolean().describe('Whether the calling token can read this kind.'),
  endpoints: z.object({ read: z.string(), list: z.string().nullable(), writes: z.array(z.string()) }),
  fields: z.array(fieldSchema),
  links: z.array(z.object({ field: z.string(), kind: z.string() })).describe('customerId → customer, …'),
  stateMachine: z.object({ field: z.string(), moves: z.record(z.string(), z.array(z.string())) }).nullable(),
});

const FEED_NOTE =
  'The feed is eventually consistent: a write shows up shortly after it succeeds (normally well under a second), in the order the tenant’s changes were recorded. Keep nextCursor and poll with it; hasMore says whether to call again at once.';

function readableKinds(catalogue: readonly ResourceKind[], caller: Caller, deps: SyncDeps) {
  return catalogue.filter(
    (kind) =>
      isKind(kind.scopeKind) && deps.authorize(caller, { action: 'read', kind: kind.scopeKind }).allowed,
  );
}

/** `kinds=lead,deal`: each must be a kind of GET /resources, and one the token can read. */
function requestedKinds(
  text: string | undefined,
  catalogue: readonly ResourceKind[],
  caller: Caller,
  deps: SyncDeps,
) {
  if (text === undefined) return readableKinds(catalogue, caller, deps);
  const names = [...new Set(text.split(',').map((name) => name.trim()))];
  return names.map((name) => {
    const kind = catalogue.find((entry) => entry.kind === name);
    if (!kind || !isKind(kind.scopeKind)) {
      const known = catalogue.map((entry) => entry.kind).join(', ');
      throw new AppError(
        'field_invalid_enum',
        `kinds names "${name}", which is not a kind; use some of: ${known}.`,
        {
          field: 'kinds',
        },
      );
    }
    const decision = deps.authorize(caller, { action: 'read', kind: kind.scopeKind });
    if (!decision.allowed)
      throw new AppError(decision.code, decision.reason, { required: decision.required });
    return kind;
  });
}

function visibilityOf(kinds: readonly ResourceKind[], caller: Caller): ChangeVisibility {
  return {
    kinds: kinds.map((kind) => kind.kind),
    projectKinds: kinds.filter((kind) => kind.projectScoped).map((kind) => kind.kind),
    projectIds: caller.projectIds,
  };
}

export function syncEndpoints(registry: () => readonly EndpointDef[], deps: SyncDeps): EndpointDef[] {
  let catalogue: ResourceKind[] | undefined;
  const resources = () => (catalogue ??= buildResourceCatalogue(registry()));
  return [
    defineEndpoint({
      operationId: 'listChanges',
      method: 'GET',
      path: '/changes',
      tag: 'Sync',
      summary: 'What changed in the tenant since a cursor, oldest first, for every kind the token can read.',
      description: `Each change names the resource (kind, id), what happened and its etag; read the resource to get its new state. Kinds the token cannot read are left out, and a project-restricted token sees only its projects' changes. ${FEED_NOTE}`,
      auth: 'token',
      // Kinds the token cannot read are left out, and a restricted token's project kinds are its
      // projects' only (visibilityOf).
      gathers: { kinds: KINDS, byKind: 'filter', byProject: 'filter' },
      list: true,
      query: z.strictObject({
        ...pageQuery,
        cursor: pageQuery.cursor.describe(
          'The nextCursor of the previous page; none to start at the first change.',
        ),
        kinds: z
          .string()
          .max(CHANGES_KINDS_MAX)
          .optional()
          .describe('Comma-separated kinds of GET /resources to keep, e.g. lead,deal.'),
      }),
      response: z.object({
        items: z.array(changeSchema),
        nextCursor: z.string().describe('Always set: pass it as cursor to get the changes after this page.'),
        hasMore: z.boolean().describe('True when more changes were already recorded past this page.'),
        limit: z.number().int(),
        limitClamped: z.boolean().optional(),
      }),
      errors: ['out_of_scope', 'role_denied'],
      handle: async ({ query, caller }) => {
        const me = caller as Caller;
        if (!deps.changes)
          throw new AppError('unavailable', 'The change feed is not running on this gateway.');
        const kinds = requestedKinds(query.kinds, resources(), me, deps);
        const after = query.cursor ? decodeChangeCursor(me.tenant.id, query.cursor) : 0;
        const limit = Number(query.limit);
        const page = await deps.changes.read(me.tenant.id, after, limit, visibilityOf(kinds, me));
        if (after > page.headSeq)
          throw new AppError(
            'field_invalid',
            'cursor is ahead of this tenant’s feed; start again without it.',
            { field: 'cursor' },
          );
        const full = page.items.length === limit;
        // A short page read everything up to the head, so the next call starts after it.
        const position = full ? (page.items.at(-1)?.seq ?? after) : Math.max(after, page.headSeq);
        return {
          body: {
            items: page.items.map(({ eventId: _eventId, ...change }) => change),
            nextCursor: encodeChangeCursor(me.tenant.id, position),
            hasMore: full && position < page.headSeq,
          },
        };
      },
    }),
    defineEndpoint({
      operationId: 'listResources',
      method: 'GET',
      path: '/resources',
      tag: 'Sync',
      summary:
        'The resource kinds: their fields, their read and list endpoints, how they link and their state machines.',
      description:
        'Derived from the endpoint registry, the same source as openapi.json. readable says whether the calling token can read the kind.',
      auth: 'token',
      // The contract only (fields, endpoints, machines): no records of any kind or project.
      gathers: { kinds: [], byKind: 'filter', byProject: 'filter' },
      response: z.object({ kinds: z.array(resourceSchema) }),
      handle: async ({ caller }) => {
        const readable = new Set(readableKinds(resources(), caller as Caller, deps).map((kind) => kind.kind));
        return {
          body: { kinds: resources().map((kind) => ({ ...kind, readable: readable.has(kind.kind) })) },
        };
      },
    }),
  ];
}
