// @fieldops/kit/store: the document store port, its embedded adapter, cursors and upserts. The
// indexes and query planning behind the embedded store stay inside the package (tested in
// services/kit/test). The MongoDB adapter is @fieldops/kit/store/mongo.
export { InvalidCursor } from './cursor.js';
export { openEmbeddedStore } from './embedded.js';
export { PLATFORM_TENANT, StoreConflict } from './port.js';
export type { CollectionSpec, Condition, Doc, DocumentStore, Filter, Page, Sort, WriteOp } from './port.js';
export { upsertOp } from './upsert-op.js';
