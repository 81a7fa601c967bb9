// Why: a record read by its id is not_found when missing, named as the API names it; and a record
// that hangs off a project (a capture session, design, scene, run, takeoff) is read
// by its id and the project its path names, and one of another project must answer exactly as a
// missing one, so an id says nothing about the project it belongs to. The rule is written once here.
import { notFound } from '../errors.ts';
import type { Doc, DocumentStore } from '../store/port.ts';

/** The document `id` of `collection`; else not_found naming `what`. */
export async function getOrNotFound<T extends Doc>(
  store: DocumentStore,
  collection: string,
  tenantId: string,
  id: string,
  what: string,
): Promise<T> {
  const doc = await store.get<T>(collection, tenantId, id);
  if (!doc) throw notFound(what, id);
  return doc;
}

/** The document `id` of `collection` when it belongs to `projectId`; else not_found naming `what`. */
export async function getOfProject<T extends Doc & { projectId: string }>(
  store: DocumentStore,
  collection: string,
  tenantId: string,
  ref: { projectId: string; id: string },
  what: string,
): Promise<T> {
  const doc = await store.get<T>(collection, tenantId, ref.id);
  if (!doc || doc.projectId !== ref.projectId) throw notFound(what, ref.id);
  return doc;
}
