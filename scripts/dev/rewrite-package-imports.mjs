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
// Both modes then list each name a file imports from a face that the face does not export: it was
// public only through the old single-file entry point, so add it to that face's index.ts.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

/** Old entry point → the face that now exports its names. */
export const FACES = {
  '@fieldops/gateway/clients': '@fieldops/gateway',
  '@fieldops/gateway/endpoint/types': '@fieldops/gateway',
  '@fieldops/gateway/identity/authorize': '@fieldops/gateway',
  '@fieldops/gateway/identity/collections': '@fieldops/gateway/collections',
  '@fieldops/gateway/identity/demo': '@fieldops/gateway',
  '@fieldops/gateway/identity/scopes': '@fieldops/gateway',
  '@fieldops/gateway/limits': '@fieldops/gateway',
  '@fieldops/gateway/mcp/mcp-server': '@fieldops/gateway',
  '@fieldops/gateway/mcp/tool-executor': '@fieldops/gateway',
  '@fieldops/gateway/openapi/openapi': '@fieldops/gateway',
  '@fieldops/gateway/openapi/tool-dialects': '@fieldops/gateway',
  '@fieldops/gateway/openapi/tools': '@fieldops/gateway',
  '@fieldops/gateway/pipeline/deps': '@fieldops/gateway',
  '@fieldops/gateway/registry/index': '@fieldops/gateway',
  '@fieldops/gateway/service-addresses': '@fieldops/gateway',
  '@fieldops/gateway/start-gateway': '@fieldops/gateway/start',
  '@fieldops/gateway/sync/change-feed': '@fieldops/gateway/collections',
  '@fieldops/kit/config': '@fieldops/kit',
  '@fieldops/kit/context': '@fieldops/kit',
  '@fieldops/kit/env-number': '@fieldops/kit',
  '@fieldops/kit/errors': '@fieldops/kit',
  '@fieldops/kit/ids': '@fieldops/kit',
  '@fieldops/kit/log': '@fieldops/kit',
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
  '@fieldops/kit/outbox/relayed-store': '@fieldops/kit/process',
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
  '@fieldops/capture/worker/colmap/geodesy': '@fieldops/measure-engine',
  // One entry face per service (issue 38): the starting faces were ./server or ./start-<name>.
  '@fieldops/crm/server': '@fieldops/crm/start',
  '@fieldops/projects/server': '@fieldops/projects/start',
  '@fieldops/measurements/server': '@fieldops/measurements/start',
  '@fieldops/audit/start-audit': '@fieldops/audit/start',
  '@fieldops/capture/start-capture': '@fieldops/capture/start',
  '@fieldops/exports/start-exports': '@fieldops/exports/start',
  '@fieldops/webhooks/start-webhooks': '@fieldops/webhooks/start',
};

const root = resolve(import.meta.dirname, '../..');
const QUOTED = /(['"])(@fieldops\/[\w./-]+)\1/g;

// This script and its test spell the old subpaths on purpose.
function sourceFiles() {
  const listed = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((file) => /\.(ts|tsx|mjs)$/.test(file) && !/rewrite-package-imports\b/.test(file));
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
  return { specifier: statement.moduleSpecifier.text, clause };
}

/** The names an import brings, each spelt `type X` when the import is type-only. */
function namesOf(clause, source) {
  return clause.namedBindings.elements.map((element) => {
    const text = element.getText(source);
    return clause.isTypeOnly && !element.isTypeOnly ? `type ${text}` : text;
  });
}

/**
 * Merges the named imports of one package face into one declaration (other modules' imports are
 * left as they are written): `import { a } from 'x'` and
 * `import { type B } from 'x'` become `import { a, type B } from 'x'`; type-only imports alone stay
 * `import type { ... }`.
 */
export function mergeImports(text, fileName = 'file.ts') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const groups = new Map();
  for (const statement of source.statements) {
    const found = namedImport(statement);
    if (!found || !found.specifier.startsWith('@fieldops/')) continue;
    const group = groups.get(found.specifier) ?? [];
    group.push({ statement, clause: found.clause });
    groups.set(found.specifier, group);
  }
  const edits = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const target = group.find((entry) => !entry.clause.isTypeOnly) ?? group[0];
    const allTypes = target.clause.isTypeOnly;
    const names = group.flatMap((entry) =>
      allTypes
        ? entry.clause.namedBindings.elements.map((e) => e.getText(source))
        : namesOf(entry.clause, source),
    );
    const bindings = target.clause.namedBindings;
    edits.push({
      start: bindings.getStart(source),
      end: bindings.getEnd(),
      text: `{ ${[...new Set(names)].join(', ')} }`,
    });
    for (const entry of group) {
      if (entry !== target)
        edits.push({ start: entry.statement.getFullStart(), end: entry.statement.getEnd(), text: '' });
    }
  }
  return edits
    .sort((a, b) => b.start - a.start)
    .reduce((out, edit) => out.slice(0, edit.start) + edit.text + out.slice(edit.end), text);
}

/** Package name → its folder, from the root package.json's workspaces. */
function workspaceDirs() {
  const { workspaces } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
  return new Map(
    workspaces.map((dir) => [JSON.parse(readFileSync(resolve(root, dir, 'package.json'), 'utf8')).name, dir]),
  );
}

/** The file a bare specifier resolves to through its package's exports, if it is one of ours. */
function entryFile(specifier, dirs) {
  const name = specifier.split('/').slice(0, 2).join('/');
  const dir = dirs.get(name);
  if (!dir) return undefined;
  const { exports } = JSON.parse(readFileSync(resolve(root, dir, 'package.json'), 'utf8'));
  const target = exports?.['.' + specifier.slice(name.length)];
  return target ? resolve(root, dir, target) : undefined;
}

const EXPORTED = ts.SyntaxKind.ExportKeyword;

/** Every name a module exports, following `export * from` into the files it names. */
function exportedNames(file, seen = new Set()) {
  const names = new Set();
  if (seen.has(file)) return names;
  seen.add(file);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause)) clause.elements.forEach((e) => names.add(e.name.text));
      else if (clause) names.add(clause.name.text);
      else if (statement.moduleSpecifier) {
        const target = resolve(dirname(file), statement.moduleSpecifier.text.replace(/\.js$/, '.ts'));
        exportedNames(target, seen).forEach((name) => names.add(name));
      }
    } else if (statement.modifiers?.some((m) => m.kind === EXPORTED)) {
      if (ts.isVariableStatement(statement)) {
        statement.declarationList.declarations.forEach(
          (d) => ts.isIdentifier(d.name) && names.add(d.name.text),
        );
      } else if (statement.name) names.add(statement.name.text);
    }
  }
  return names;
}

/** `file: name` for each name the file imports from a face that the face does not export. */
function missingNames(file, text, faces) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const missing = [];
  for (const statement of source.statements) {
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier) || !faces.has(specifier.text)) continue;
    const bindings = ts.isImportDeclaration(statement)
      ? statement.importClause?.namedBindings
      : statement.exportClause;
    if (!bindings || !(ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) continue;
    const exported = faces.get(specifier.text);
    for (const element of bindings.elements) {
      const name = (element.propertyName ?? element.name).text;
      if (!exported.has(name)) missing.push(`${file}: ${specifier.text} does not export ${name}`);
    }
  }
  return missing;
}

/** Face specifier → the names its index exports. */
function faceExports() {
  const dirs = workspaceDirs();
  const faces = new Map();
  for (const face of new Set(Object.values(FACES))) {
    const file = entryFile(face, dirs);
    if (file) faces.set(face, exportedNames(file));
  }
  return faces;
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
  const faces = faceExports();
  const changed = [];
  const missing = [];
  for (const file of sourceFiles()) {
    const path = resolve(root, file);
    const text = readFileSync(path, 'utf8');
    const rewritten = rewriteSpecifiers(text);
    missing.push(...missingNames(file, rewritten, faces));
    if (rewritten === text) continue;
    changed.push(file);
    if (!check) writeFileSync(path, mergeImports(rewritten, file));
  }
  if (check) {
    for (const file of changed) console.log(`${file}: imports an old subpath`);
  } else {
    await formatted(changed);
    console.log(`rewrote ${changed.length} file(s)`);
    for (const file of changed) console.log(`  ${file}`);
  }
  for (const line of missing) console.log(line);
  if (missing.length > 0)
    console.log("export these names from the faces' index.ts (see the comment at the top)");
  process.exitCode = (check && changed.length > 0) || missing.length > 0 ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
