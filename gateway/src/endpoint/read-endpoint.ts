// The declaration every single-record GET of a project's data shares (a capture session, a run, a
// scene and its geometry, an artifact, a design, a takeoff, the quantities): a project-scoped read
// by the path's ids, answered by one RPC (named after the operation unless `rpc` says otherwise),
// whose reply is the record under one member (`shape` turns it into the answer where the service's
// message is not the record as served). Each file keeps its literal path, words and record schema;
// the request `{ projectId[, <record id>] }` is read off that path, so the shape is written once.
import type { UnaryMethodName } from '@fieldops/kit/grpc';
import { z } from 'zod';
import type { ServiceClients } from '../clients.ts';
import { defineEndpoint, type EndpointDef } from './types.ts';
import { callServiceRpc, readOf, type ServiceRead } from './service-read.ts';

/** The RPC a read calls: named after the operation, or named apart as `rpc`. */
type ReadRpc<S extends keyof ServiceClients> =
  | { operationId: UnaryMethodName<ServiceClients[S]> & string; rpc?: undefined }
  | { operationId: string; rpc: UnaryMethodName<ServiceClients[S]> & string };

/** Those single-record GETs. */
export type ProjectRecordRead<S extends keyof ServiceClients> = ReadRpc<S> &
  /** `path` is `/projects/:id/<...>[/:<recordId>[/<...>]]`. */
  ServiceRead<S> & {
    params: z.ZodObject;
    /** The answer's one member and the record's schema, e.g. `{ scene: sceneSchema }`. */
    answer: Record<string, z.ZodType>;
    /** The answer's record from the service's reply, when it is not the reply itself. */
    shape?: (reply: never) => unknown;
  };

/** `/projects/:id/scenes/:sceneId/geometry` → `sceneId`: the record's id, after the project's (if any). */
function recordIdOf(path: string): string | undefined {
  const names = [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  if (!path.startsWith('/projects/:id/') || names.length > 2) {
    throw new Error(`${path} is not the read of one record of a project (/projects/:id/...[/:recordId]).`);
  }
  return names[1];
}

export function readEndpoint<S extends keyof ServiceClients>(read: ProjectRecordRead<S>): EndpointDef {
  const recordId = recordIdOf(read.path);
  const [member, ...others] = Object.keys(read.answer);
  if (!member || others.length)
    throw new Error(`${read.path} answers one member; it names ${others.length + 1}.`);
  const {
    service,
    operationId,
    rpc = operationId as string,
    answer,
    kind,
    shape = (reply: unknown) => reply,
    ...words
  } = read;
  return defineEndpoint({
    ...words,
    operationId,
    ...readOf(kind),
    projectParam: 'id',
    response: z.object(answer),
    handle: async ({ params, ctx, clients }) => {
      const request = { projectId: params.id, ...(recordId ? { [recordId]: params[recordId] } : {}) };
      return { body: { [member]: shape(await callServiceRpc(clients, service, rpc, request, ctx)) } };
    },
  });
}
