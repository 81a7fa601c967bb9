// Each workspace's package faces (docs/architecture.md, "Package faces"): the table there and the
// `exports` of each package.json name the same entry points, each points at a file that exists,
// and the kit's folder faces are curated index files, not single implementation files.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';

const root = join(import.meta.dirname, '..');
const workspaces = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] })
  .workspaces;

interface Manifest {
  name: string;
  exports: Record<string, string>;
}
const manifests = workspaces.map((dir) => ({
  dir,
  ...(JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest),
}));

/** workspace name → its faces, as the table in docs/architecture.md lists them. */
function documentedFaces(): Map<string, string[]> {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const section = doc.split('## Package faces')[1]?.split('\n## ')[0] ?? '';
  const rows = section.split('\n').filter((line) => /^\| `@fieldops\//.test(line));
  return new Map(
    rows.map((row) => {
      const [name = '', faces = ''] = row
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.trim());
      return [name.replaceAll('`', ''), [...faces.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '')];
    }),
  );
}

describe('package faces', () => {
  it('are listed in docs/architecture.md exactly as package.json exports them', () => {
    const documented = documentedFaces();
    expect(documented.size).toBeGreaterThan(10);
    for (const [name, faces] of documented) {
      const manifest = manifests.find((m) => m.name === name);
      expect({ name, faces: Object.keys(manifest?.exports ?? {}).sort() }).toEqual({
        name,
        faces: [...faces].sort(),
      });
    }
  });

  it('point at files that exist', () => {
    for (const { dir, name, exports } of manifests) {
      for (const [face, file] of Object.entries(exports)) {
        expect({ face: `${name}/${face}`, exists: existsSync(join(root, dir, file)) }).toEqual({
          face: `${name}/${face}`,
          exists: true,
        });
      }
    }
  });

  // The internal CA is a face of its own, not part of ./grpc, so that no service bundle carries its
  // X.509 library: only npm start, the local cluster and the tests make certificates.
  it("are the kit's folder index files, apart from the adapter chooser, the internal CA and the metrics registry", () => {
    const kit = manifests.find((m) => m.name === '@fieldops/kit');
    const notIndexes = Object.entries(kit?.exports ?? {}).filter(([, file]) => !file.endsWith('/index.ts'));
    expect(notIndexes).toEqual([
      ['./adapters', './src/adapters.ts'],
      ['./internal-ca', './src/grpc/internal-ca.ts'],
      ['./metrics', './src/metrics.ts'],
    ]);
  });

  // Issue 38: a service is started through one face of one name, whichever file serves it.
  it("name every service's starting face ./start", () => {
    const services = manifests.filter(
      (m) => m.dir.startsWith('services/') && Object.keys(m.exports).includes('.'),
    );
    const starting = services.filter((m) => m.exports['./start'] !== undefined).map((m) => m.name);
    expect(starting.sort()).toEqual(
      [
        '@fieldops/audit',
        '@fieldops/capture',
        '@fieldops/crm',
        '@fieldops/exports',
        '@fieldops/measurements',
        '@fieldops/projects',
        '@fieldops/webhooks',
      ].sort(),
    );
    const otherStarts = services.flatMap((m) =>
      Object.keys(m.exports).filter((face) => face === './server' || face.startsWith('./start-')),
    );
    expect(otherStarts).toEqual([]);
  });
});
