// The declaration every POST <collection>/:id/<action> that moves a record along its declared
// machine shares (deals advance and lose, bookings confirm and decline, proposals send and
// withdraw, invoices issue and void, the project lifecycle): an update of the record's kind,
// rehearsable, publishing the machine it guards and answering the record (or not_found). Each
// endpoint adds its own id, words, body, further errors and handler.
import type { ErrorCode } from '@fieldops/kit';
import type { z } from 'zod';
import type { Kind } from '../identity/scopes.ts';
import { idParams } from './common.schemas.ts';

export interface MovedRecord {
  /** The collection path, e.g. `/deals`. */
  path: string;
  tag: string;
  kind: Kind;
  machine: { field: string; moves: Readonly<Record<string, readonly string[]>> };
  response: z.ZodType;
  /** `:id` names a project: the project scope checks it (projectParam), not_found included. */
  projectScoped?: boolean;
}

/** `path` is the endpoint's own, written literally by its declaring file; it must lie under `record.path`. */
export function moveEndpoint(record: MovedRecord, path: string) {
  if (!new RegExp(`^${record.path}/:id/[a-z-]+$`).test(path)) {
    throw new Error(`${path} is not an action of ${record.path}/:id.`);
  }
  return {
    method: 'POST' as const,
    path,
    tag: record.tag,
    auth: 'scope' as const,
    scope: { action: 'update' as const, kind: record.kind },
    params: idParams,
    dryRun: true,
    machine: record.machine,
    response: record.response,
    // The record named by :id may not exist: the project scope answers that for a project, the
    // service for any other record (the pipeline's own codes are derived: errorCodesOf).
    ...(record.projectScoped ? { projectParam: 'id' } : { errors: ['not_found'] satisfies ErrorCode[] }),
  };
}
