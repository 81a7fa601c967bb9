// Types of migrate.mjs for the test that runs the migration bundle.
export function migrateStores(options: {
  bundles: string;
  mongodbUri: string;
  log: string;
  cwd?: string;
}): Promise<void>;
