// `npm run store:migrate` (and /app/dist/store-migrate.mjs, the chart's pre-install/pre-upgrade
// Job): builds every service's declared MongoDB indexes on MONGODB_URI. It creates the missing
// ones, reports the ones held with another shape and leaves them, and leaves every index nobody
// declared. It drops an index only when named:
//
//   npm run store:migrate [-- --dry-run] [-- --drop <collection>.<index> ...]
//
// A --drop applies in every service database holding that collection and index; one that names
// nothing anywhere stops the run before anything changes. Services at start only check their
// indexes (MissingIndexes), so this runs before they do. Exit 0: done (differences reported);
// 1: failed; 2: usage; 78: MONGODB_URI is not set. It has been exercised only by the unit tests of its planning
// (docs/production-adapters.md).
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import type { CollectionPlan, DeclaredCollection } from '@fieldops/kit/store/mongo';
import { STORE_CATALOGUE } from './store-catalogue.ts';

export interface MigrateArgs {
  dryRun: boolean;
  drops: string[];
}

export function parseMigrateArgs(argv: readonly string[]): MigrateArgs {
  const args: MigrateArgs = { dryRun: false, drops: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--dry-run') args.dryRun = true;
    else if (arg === '--drop' && argv[i + 1] !== undefined) args.drops.push(argv[++i]!);
    else if (arg?.startsWith('--drop=')) args.drops.push(arg.slice('--drop='.length));
    else
      throw new Error(
        `unknown argument ${arg ?? ''}: store-migrate [--dry-run] [--drop <collection>.<index>]...`,
      );
  }
  return args;
}

export async function migrateStores(
  uri: string,
  args: MigrateArgs,
  out: (line: string) => void,
): Promise<void> {
  const migrate = await import('@fieldops/kit/store/mongo');
  const { connectMongo, serviceDatabaseName, redactUri } = migrate;
  const drops = migrate.parseDrops(args.drops);
  const used = new Set<string>();
  const planned: {
    dbName: string;
    connection: Awaited<ReturnType<typeof connectMongo>>;
    plans: CollectionPlan[];
  }[] = [];
  try {
    for (const [store, specs] of Object.entries(STORE_CATALOGUE)) {
      const dbName = serviceDatabaseName(uri, store);
      const connection = await connectMongo({ uri, dbName });
      const collections: DeclaredCollection[] = [
        ...migrate.storeCollections(),
        ...specs.map((spec) => ({ name: spec.name, indexes: migrate.specIndexes(spec) })),
      ];
      planned.push({
        dbName,
        connection,
        plans: await migrate.planDatabase(connection, collections, drops, used),
      });
    }
    const unused = args.drops.filter((drop) => !used.has(drop));
    if (unused.length > 0) {
      throw new Error(
        `--drop ${unused.join(', ')}: no service database holds that index; nothing was changed`,
      );
    }
    out(`${args.dryRun ? 'Planning' : 'Migrating'} indexes on ${redactUri(uri)}`);
    for (const { dbName, connection, plans } of planned) {
      if (!args.dryRun) await migrate.applyPlans(connection, plans);
      const lines = plans.flatMap((plan) => migrate.describePlan(plan, !args.dryRun));
      out(`${dbName}: ${lines.length === 0 ? 'every declared index is in place' : ''}`);
      for (const line of lines) out(`  ${line}`);
    }
  } finally {
    for (const { connection } of planned) await connection.close().catch(() => undefined);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let args: MigrateArgs;
  try {
    args = parseMigrateArgs(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    console.error(
      'store-migrate: MONGODB_URI is not set: it names the MongoDB deployment whose service databases ' +
        'get their indexes (the embedded store builds its own; there is nothing to migrate)',
    );
    // EX_CONFIG, as every process kind exits on a missing setting (EXIT_CONFIG, service-process.ts).
    process.exit(78);
  }
  try {
    await migrateStores(uri, args, (line) => process.stdout.write(`${line}\n`));
  } catch (error) {
    console.error(`store-migrate failed: ${(error as Error).message}`);
    process.exit(1);
  }
}
