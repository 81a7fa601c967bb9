// How every write answers over HTTP, from the service's WriteMeta.
import type { common } from '@fieldops/proto';
import type { HandlerResult } from './types.ts';

type Rehearsal = Partial<common.Rehearsal>;

/** The response of a write: 201 when created, 200 for replays, amendments and dry runs. */
export function writeResult(
  name: string,
  record: object | undefined,
  meta: { created: boolean; replayed: boolean; deduped: boolean; rehearsal?: object | undefined } | undefined,
): HandlerResult {
  const body: Record<string, unknown> = { [name]: record ?? {} };
  if (meta?.replayed) body.replayed = true;
  if (meta?.deduped) body.deduped = true;
  if (meta?.rehearsal) {
    const rehearsal = meta.rehearsal as Rehearsal;
    return {
      status: 200,
      body: {
        dryRun: true,
        applied: false,
        // The dry run of a replay says so: the write was done before, and repeating it costs nothing.
        ...(meta.replayed ? { replayed: true } : {}),
        willDo: rehearsal.willDo ?? '',
        effects: rehearsal.effects ?? [],
        [name]: body[name],
        ...detailsOf(rehearsal),
      },
    };
  }
  const etag = (record as { etag?: string } | undefined)?.etag;
  return { status: meta?.created && !meta.replayed ? 201 : 200, body, ...(etag ? { etag } : {}) };
}

type WriteMeta = Parameters<typeof writeResult>[2];

/**
 * A handler that forwards a write to one RPC answers the reply's record under `name`, as
 * writeResult says:
 *   handle: (...) => forwardWrite('deal', callUnary(clients.deals, 'createDeal', body, ctx))
 * The call stays in the declaration, so its RPC is one hop away.
 */
export async function forwardWrite<N extends string>(
  name: N,
  reply: Promise<{ [K in N]?: object | undefined } & { meta?: WriteMeta }>,
): Promise<HandlerResult> {
  const write = await reply;
  return writeResult(name, write[name], write.meta);
}

/** Who an operation reaches and the money at stake; a confirmation's willDo repeats them. */
function detailsOf(rehearsal: Rehearsal): { details?: Record<string, unknown> } {
  const details = {
    ...(rehearsal.recipientMasked ? { recipient: rehearsal.recipientMasked } : {}),
    ...(rehearsal.totalCents !== undefined ? { totalCents: rehearsal.totalCents } : {}),
  };
  return Object.keys(details).length ? { details } : {};
}
