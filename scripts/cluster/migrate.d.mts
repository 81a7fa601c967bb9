// Types of migrate.mjs for the test that runs the migration job.
export function migrateStores(options: { mongodbUri: string; log: string; cwd?: string }): Promise<void>;
