// @fieldops/kit/store/mongo: connecting to MongoDB and migrating its indexes, for the store-migrate
// job. Import it dynamically where it is optional: loading mongoose takes about a second.
export { connectMongo, redactUri, serviceDatabaseName } from './connect.ts';
export {
  applyPlans,
  describePlan,
  parseDrops,
  planDatabase,
  specIndexes,
  storeCollections,
} from './migrate.ts';
export type { CollectionPlan, DeclaredCollection } from './migrate.ts';
