// scripts/dev/rewrite-package-imports.mjs moves code written against the old one-file entry points
// onto the package faces after a merge: every old subpath goes to a face the package exports, the
// imports it then has twice from one face become one, and a second run changes nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { FACES, mergeImports, rewriteSpecifiers } from '../scripts/dev/rewrite-package-imports.mjs';

const root = join(import.meta.dirname, '..');

const OLD = [
  "import { openEmbeddedStore } from '@fieldops/kit/store/embedded';",
  "import type { DocumentStore } from '@fieldops/kit/store/port';",
  "import { upsertOp } from '@fieldops/kit/store/upsert-op';",
  "import { createLogger } from '@fieldops/kit/log';",
  "const mongo = await import('@fieldops/kit/store/mongo/connect');",
  "import { x } from '@fieldops/kit/src/errors';",
].join('\n');

const rewrite = (text: string) => mergeImports(rewriteSpecifiers(text));

describe('rewriting imports of the old entry points', () => {
  it('sends each old subpath to its face and merges the imports of one face', () => {
    expect(rewrite(OLD).split('\n')).toEqual([
      "import { openEmbeddedStore, type DocumentStore, upsertOp } from '@fieldops/kit/store';",
      "import { createLogger } from '@fieldops/kit';",
      "const mongo = await import('@fieldops/kit/store/mongo');",
      "import { x } from '@fieldops/kit/src/errors';",
    ]);
  });

  it('keeps type-only imports type-only when no value import of the face is there', () => {
    const types =
      "import type { A } from '@fieldops/kit/store/port';\nimport type { B } from '@fieldops/kit/store/cursor';";
    expect(rewrite(types)).toBe("import type { A, B } from '@fieldops/kit/store';");
  });

  it('changes nothing the second time', () => {
    const once = rewrite(OLD);
    expect(rewrite(once)).toBe(once);
  });

  it('maps only to faces the packages export, never to another old subpath', () => {
    const exported = new Set<string>();
    const workspaces = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] }
    ).workspaces;
    for (const dir of workspaces) {
      const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
        name: string;
        exports: Record<string, string>;
      };
      for (const face of Object.keys(manifest.exports)) exported.add(manifest.name + face.slice(1));
    }
    for (const [old, face] of Object.entries(FACES)) {
      expect({ old, face, exported: exported.has(face), stillOld: face in FACES }).toEqual({
        old,
        face,
        exported: true,
        stillOld: false,
      });
    }
  });
});
