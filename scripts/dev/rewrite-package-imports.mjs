#!/usr/bin/env node
// Why: the workspaces used to export one entry point per file (45 in @fieldops/kit alone); they now
// export a few folder faces, each a curated index.ts (docs/architecture.md, "Package faces"). Code
// written against the old entry points, on a branch made before the change, is brought over by
// running this again: it rewrites every import of an old subpath to its face and merges the
// imports a file then has twice from one face. Running it on rewritten code changes nothing.
//
//   node scripts/dev/rewrite-package-imports.mjs          # rewrite, then prettier the changed files
//   node scripts/dev/rewrite-package-imports.mjs --check  # exit 1 and list files still on old subpaths
//
// When `npm run typecheck` then says a face has no exported member X, the name was public only
// through the old single-file entry point: export it from that face's index.ts.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';

/** Old entry point → the face that now exports its names. */
export const FACES = {
  '@fieldops/kit/config': '@fieldops/kit',
  '@fieldops/kit/context': '@fieldops/kit',
  '@fieldops/kit/env-number': '@fieldops/kit',
  '@fieldops/kit/errors': '@fieldops/kit',
  '@fieldops/kit/ids': '@fieldops/kit',
  '@fieldops/kit/log': '@fieldops/kit',
  '@fieldops/kit/metrics': '@fieldops/kit',
  '@fieldops/kit/blobs/embedded': '@fieldops/kit/blobs',
  '@fieldops/kit/blobs/embedded-http': '@fieldops/kit/blobs',
  '@fieldops/kit/blobs/http-values': '@fieldops/kit/blobs',
  '@fieldops/kit/blobs/key': '@fieldops/kit/blobs',
  '@fieldops/kit/blobs/port': '@fieldops/kit/blobs',
  '@fieldops/kit/blobs/open-blob-store': '@fieldops/kit/adapters',
  '@fieldops/kit/domain/actor': '@fieldops/kit/domain',
  '@fieldops/kit/domain/changes': '@fieldops/kit/domain',
  '@fieldops/kit/domain/effects': '@fieldops/kit/domain',
  '@fieldops/kit/domain/etag': '@fieldops/kit/domain',
  '@fieldops/kit/domain/fields': '@fieldops/kit/domain',
  '@fieldops/kit/domain/paging': '@fieldops/kit/domain',
  '@fieldops/kit/domain/project-scoped': '@fieldops/kit/domain',
  '@fieldops/kit/domain/signed-links': '@fieldops/kit/domain',
  '@fieldops/kit/domain/tenant-dump': '@fieldops/kit/domain',
  '@fieldops/kit/events/embedded': '@fieldops/kit/events',
  '@fieldops/kit/events/envelope': '@fieldops/kit/events',
  '@fieldops/kit/events/port': '@fieldops/kit/events',
  '@fieldops/kit/events/wakeup': '@fieldops/kit/events',
  '@fieldops/kit/outbox/relayed-store': '@fieldops/kit/events',
  '@fieldops/kit/fast/embedded': '@fieldops/kit/fast',
  '@fieldops/kit/fast/port': '@fieldops/kit/fast',
  '@fieldops/kit/grpc/client': '@fieldops/kit/grpc',
  '@fieldops/kit/grpc/domain-binding': '@fieldops/kit/grpc',
  '@fieldops/kit/grpc/server': '@fieldops/kit/grpc',
  '@fieldops/kit/process/private-files': '@fieldops/kit/process',
  '@fieldops/kit/process/service-process': '@fieldops/kit/process',
  '@fieldops/kit/process/service-start': '@fieldops/kit/process',
  '@fieldops/kit/process/shutdown-stack': '@fieldops/kit/process',
  '@fieldops/kit/store/cursor': '@fieldops/kit/store',
  '@fieldops/kit/store/embedded': '@fieldops/kit/store',
  '@fieldops/kit/store/port': '@fieldops/kit/store',
  '@fieldops/kit/store/upsert-op': '@fieldops/kit/store',
  '@fieldops/kit/store/mongo/connect': '@fieldops/kit/store/mongo',
  '@fieldops/kit/store/mongo/migrate': '@fieldops/kit/store/mongo',
  '@fieldops/kit/testing/json-page': '@fieldops/kit/testing',
  '@fieldops/kit/testing/service-test': '@fieldops/kit/testing',
  '@fieldops/kit/write/index': '@fieldops/kit/write',
  '@fieldops/contracts/event-topics': '@fieldops/contracts',
  '@fieldops/contracts/webhook-event-types': '@fieldops/contracts',
  '@fieldops/contracts/testing/machine-paths': '@fieldops/contracts/testing',
  '@fieldops/measure-engine/quantities-message': '@fieldops/measure-engine',
  '@fieldops/measure-engine/testing/point-clouds': '@fieldops/measure-engine/testing',
  '@fieldops/measure-engine/bench/throughput': '@fieldops/measure-engine/bench',
  '@fieldops/capture/settings': '@fieldops/capture',
  '@fieldops/capture/scenes/export-formats': '@fieldops/capture',
  '@fieldops/capture/worker/engine.port': '@fieldops/capture/worker',
  '@fieldops/capture/worker/colmap/colmap.engine': '@fieldops/capture/worker',
  '@fieldops/capture/worker/colmap/geodesy': '@fieldops/capture/worker',
};

const root = resolve(import.meta.dirname, '../..');
const QUOTED = /(['"])(@fieldops\/[\w./-]+)\1/g;

function sourceFiles() {
  const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter(
      (file) => /\.(ts|tsx|mjs)$/.test(file) && !file.startsWith('scripts/dev/rewrite-package-imports'),
    );
}

/** The text with every quoted old subpath replaced by its face. */
export function rewriteSpecifiers(text) {
  return text.replace(QUOTED, (whole, quote, specifier) =>
    FACES[specifier] ? `${quote}${FACES[specifier]}${quote}` : whole,
  );
}

function namedImport(statement) {
  if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return undefined;
  const clause = statement.importClause;
  if (!clause || clause.name || !clause.namedBindings || !ts.isNamedImports(clause.namedBindings))
    return undefined;
  return { key: `${clause.isTypeOnly ? 'type ' : ''}${statement.moduleSpecifier.text}`, clause };
}

/** Merges `import { a } from 'x'` and `import { b } from 'x'` into one (type-only imports apart). */
export function mergeImports(text, fileName = 'file.ts') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const first = new Map();
  const edits = [];
  for (const statement of source.statements) {
    const found = namedImport(statement);
    if (!found) continue;
    const names = found.clause.namedBindings.elements.map((element) => element.getText(source));
    const earlier = first.get(found.key);
    if (!earlier) {
      first.set(found.key, { statement, names });
      continue;
    }
    earlier.names.push(...names);
    edits.push({ start: statement.getFullStart(), end: statement.getEnd(), text: '' });
  }
  for (const { statement, names } of first.values()) {
    const bindings = statement.importClause.namedBindings;
    const merged = `{ ${[...new Set(names)].join(', ')} }`;
    if (merged !== bindings.getText(source)) {
      edits.push({ start: bindings.getStart(source), end: bindings.getEnd(), text: merged });
    }
  }
  if (!edits.some((edit) => edit.text === '')) return text;
  return edits
    .sort((a, b) => b.start - a.start)
    .reduce((out, edit) => out.slice(0, edit.start) + edit.text + out.slice(edit.end), text);
}

async function formatted(files) {
  const prettier = await import('prettier');
  for (const file of files) {
    const path = resolve(root, file);
    const options = (await prettier.resolveConfig(path)) ?? {};
    writeFileSync(path, await prettier.format(readFileSync(path, 'utf8'), { ...options, filepath: path }));
  }
}

async function main() {
  const check = process.argv.includes('--check');
  const changed = [];
  for (const file of sourceFiles()) {
    const path = resolve(root, file);
    const text = readFileSync(path, 'utf8');
    const rewritten = rewriteSpecifiers(text);
    if (rewritten === text) continue;
    changed.push(file);
    if (!check) writeFileSync(path, mergeImports(rewritten, file));
  }
  if (check) {
    for (const file of changed) console.log(`${file}: imports an old subpath`);
    process.exitCode = changed.length ? 1 : 0;
    return;
  }
  await formatted(changed);
  console.log(`rewrote ${changed.length} file(s)`);
  for (const file of changed) console.log(`  ${file}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
