// The declaration every single-record GET of a project's capture data shares (a capture session,
// a run, a scene and its geometry, an artifact, a design): a project-scoped read of one record by
// the path's last id, answered by one RPC of the same name as the operation, whose reply is the
// record under one member. Each file keeps its literal path, words and record schema; the request
// `{ projectId, <last id> }` is read off that path, so the shape is written once.
import { callUnary, type UnaryMethodName } from '@fieldops/kit/grpc/client';
import { z } from 'zod';
import type { ServiceClients } from '../clients.js';
import type { Kind } from '../identity/scopes.js';
import { defineEndpoint, type EndpointDef } from '../endpoint/types.js';

/** Those single-record GETs: `operationId` is also the service's RPC. */
export interface ProjectRecordRead<S extends keyof ServiceClients> {
  operationId: UnaryMethodName<ServiceClients[S]> & string;
  /** The literal path, `/projects/:id/<...>/:<recordId>[/<...>]`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  kind: Kind;
  service: S;
  params: z.ZodObject;
  /** The answer's one member and the record's schema, e.g. `{ scene: sceneSchema }`. */
  answer: Record<string, z.ZodType>;
}

/** `/projects/:id/scenes/:sceneId/geometry` → `sceneId`: the record's id, the path's last parameter. */
function recordIdOf(path: string): string {
  const names = [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  if (!path.startsWith('/projects/:id/') || names.length !== 2) {
    throw new Error(`${path} is not the read of one record of a project (/projects/:id/.../:recordId).`);
  }
  return names[1]!;
}

export function readEndpoint<S extends keyof ServiceClients>(read: ProjectRecordRead<S>): EndpointDef {
  const recordId = recordIdOf(read.path);
  const [member, ...others] = Object.keys(read.answer);
  if (!member || others.length)
    throw new Error(`${read.path} answers one member; it names ${others.length + 1}.`);
  const { service, operationId, answer, kind, ...words } = read;
  return defineEndpoint({
    ...words,
    operationId,
    method: 'GET',
    auth: 'scope',
    scope: { action: 'read', kind },
    projectParam: 'id',
    response: z.object(answer),
    handle: async ({ params, ctx, clients }) => {
      const request = { projectId: params.id, [recordId]: params[recordId] };
      // The request's two fields are the path's ids; the RPC is the one named after the operation.
      const call = callUnary as (
        client: unknown,
        rpc: string,
        req: object,
        c: typeof ctx,
      ) => Promise<unknown>;
      return { body: { [member]: await call(clients[service], operationId, request, ctx) } };
    },
  });
}
