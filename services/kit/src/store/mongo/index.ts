// @fieldops/kit/store/mongo: connecting to MongoDB and migrating its indexes, for the store-migrate
// job. Import it dynamically where it is optional: loading mongoose takes about a second.
export { connectMongo, redactUri, serviceDatabaseName } from './connect.js';
export {
  applyPlans,
  describePlan,
  parseDrops,
  planDatabase,
  specIndexes,
  storeCollections,
} from './migrate.js';
export type { CollectionPlan, DeclaredCollection } from './migrate.js';
