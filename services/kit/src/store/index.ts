// @fieldops/kit/store: the document store port, its embedded adapter, cursors and upserts. The
// indexes and query planning behind the embedded store stay inside the package (tested in
// services/kit/test). The MongoDB adapter is @fieldops/kit/store/mongo.
export { InvalidCursor } from './cursor.ts';
export { openEmbeddedStore } from './embedded.ts';
export { PLATFORM_TENANT, StoreConflict } from './port.ts';
export type { CollectionSpec, Condition, Doc, DocumentStore, Filter, Page, Sort, WriteOp } from './port.ts';
export { upsertOp } from './upsert-op.ts';
