// The index migration (npm run store:migrate, platform/src/store-migrate.ts) builds the stores its
// catalogue lists. A process that opened a store the catalogue misses would start against a
// database the migration never prepared and stop on MissingIndexes, so every store name the
// sources open is checked to be listed, and the command's arguments are checked here too.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { STORE_CATALOGUE } from '@fieldops/platform/store-catalogue';
import { parseMigrateArgs } from '@fieldops/platform/store-migrate';

/** The store names passed to openServiceStore / openRelayedStore (and the platform's relay()). */
function openedStoreNames(): string[] {
  const found = execFileSync(
    'git',
    [
      'grep',
      '-h',
      '-o',
      '-E',
      "(openServiceStore|openRelayedStore|relay)\\([^,)]*, *'[a-z-]+'|relay\\('[a-z-]+'\\)",
      '--',
      '*.ts',
    ],
    { encoding: 'utf8' },
  );
  return [...new Set([...found.matchAll(/'([a-z-]+)'/g)].map((match) => match[1]!))].sort();
}

describe('store migration catalogue', () => {
  it('lists every store a process opens', () => {
    const names = openedStoreNames();
    expect(names).toEqual(expect.arrayContaining(['audit', 'crm', 'gateway', 'sync']));
    for (const name of names) expect(Object.keys(STORE_CATALOGUE)).toContain(name);
  });

  it('declares collections for every store, each once', () => {
    for (const [store, specs] of Object.entries(STORE_CATALOGUE)) {
      const names = specs.map((spec) => spec.name);
      expect({ store, names }).toEqual({ store, names: [...new Set(names)] });
      expect(names.length).toBeGreaterThan(0);
    }
  });

  it('reads --dry-run and repeated --drop, and refuses anything else', () => {
    expect(parseMigrateArgs(['--drop', 'leads.a', '--drop=deals.b', '--dry-run'])).toEqual({
      dryRun: true,
      drops: ['leads.a', 'deals.b'],
    });
    expect(() => parseMigrateArgs(['--force'])).toThrow(/unknown argument --force/);
    expect(() => parseMigrateArgs(['--drop'])).toThrow(/unknown argument --drop/);
  });
});
