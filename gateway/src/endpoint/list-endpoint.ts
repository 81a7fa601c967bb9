// The declaration every plain list of a collection shares (leads, customers, bookings, projects,
// tasks): a paged GET of one kind whose filters, beside the page's cursor and limit, go to one RPC
// of the same name as the operation under their own names, and whose answer is a page of the
// collection's items. Each file keeps its literal path, words, filters and item schema; a list
// served to project-restricted tokens names `projectScope`, and the RPC then gets the token's
// projects as `scope`.
import type { UnaryMethodName } from '@fieldops/kit/grpc';
import { z } from 'zod';
import type { ServiceClients } from '../clients.ts';
import type { Caller } from '../identity/model.ts';
import { pageBody, pageQuery, pageRequest, pageResponse } from './common.schemas.ts';
import { defineEndpoint, type EndpointDef } from './types.ts';
import { callServiceRpc, readOf, type ServiceRead } from './service-read.ts';
import type { ErrorCode } from '@fieldops/kit';

/** A list of one collection: `operationId` is also the service's RPC. */
export interface CollectionList<S extends keyof ServiceClients> extends ServiceRead<S> {
  operationId: UnaryMethodName<ServiceClients[S]> & string;
  /** The query's filters beside cursor and limit, each sent to the RPC under its own name. */
  filters: z.ZodRawShape;
  item: z.ZodType;
  /** The RPC narrows the list to the token's projects (`scope: { ids }`) for a restricted token. */
  projectScope?: boolean;
  memberBound?: boolean;
  errors?: ErrorCode[];
}

const tokenProjects = (caller: Caller | null) =>
  caller?.projectIds ? { ids: caller.projectIds } : undefined;

export function listEndpoint<S extends keyof ServiceClients>(list: CollectionList<S>): EndpointDef {
  if (!/^(\/[a-z-]+)+$/.test(list.path)) throw new Error(`${list.path} is not a collection path.`);
  const { service, operationId, kind, filters, item, projectScope, ...words } = list;
  return defineEndpoint({
    ...words,
    operationId,
    ...readOf(kind),
    list: true,
    query: z.strictObject({ ...pageQuery, ...filters }),
    response: pageResponse(item),
    handle: async ({ query, ctx, clients, caller }) => {
      const { cursor: _cursor, limit: _limit, ...given } = query;
      const request = {
        page: pageRequest(query),
        ...given,
        ...(projectScope ? { scope: tokenProjects(caller) } : {}),
      };
      const page: Parameters<typeof pageBody>[0] = await callServiceRpc(
        clients,
        service,
        operationId,
        request,
        ctx,
      );
      return { body: pageBody(page) };
    },
  });
}
