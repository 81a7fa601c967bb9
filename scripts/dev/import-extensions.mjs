#!/usr/bin/env node
// Why: Node runs the TypeScript sources as they are (its own type stripping, no tsx, no esbuild),
// and it does neither of the two things a compiler did for us: it loads the file an import names,
// so `./x.js` must say `./x.ts`; and it erases only what is marked as a type, so an import of a
// type without `type` asks the module at run time for an export it does not have. This brings a
// tree over in both respects, and again after a merge brings code written the old way:
//
//   1. every relative specifier that names a TypeScript file by its compiled name (`./x.js`,
//      `./x.mjs`, `./dir`) names the file (`./x.ts`, `./x.mts`, `./dir/index.ts`): static imports,
//      `export … from`, `import()` in code and types, `jest.unstable_mockModule`/`jest.mock`/
//      `jest.requireActual`, `import.meta.resolve`, `require.resolve` and `new URL(…, import.meta.url)`;
//      a specifier is changed only when the file it names does not exist and its TypeScript does;
//   2. imports and re-exports of types get `type`, through TypeScript's own quick fixes for
//      `verbatimModuleSyntax` (the projects of tsconfig.json and loadtest/tsconfig.node.json);
//   3. prettier lays out the files it changed.
//
// Running it on its own output changes nothing.
//
//   node scripts/dev/import-extensions.mjs          # rewrite the tree
//   node scripts/dev/import-extensions.mjs --check  # exit 1 and list specifiers still to rewrite
//                                                   # (step 1; `npm run typecheck` checks step 2)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..', '..');

/** The project's own source files (tracked or new), not what is ignored (node_modules, dist, .data). */
export function sourceFiles(repo = root) {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return listed
    .split('\n')
    .filter((file) => /\.(ts|mts|cts|mjs|js)$/.test(file) && !/(^|\/)node_modules\//.test(file))
    .filter((file) => existsSync(join(repo, file)))
    .map((file) => join(repo, file));
}

const isFile = (path) => existsSync(path) && statSync(path).isFile();
const isDir = (path) => existsSync(path) && statSync(path).isDirectory();

/** Compiled extension → the source extension Node strips. */
const SOURCE_OF = { '.js': '.ts', '.mjs': '.mts', '.cjs': '.cts' };

/**
 * The specifier that names the file `specifier` means, or undefined when it already does (or is
 * not relative, or names nothing we know).
 */
export function fixedSpecifier(specifier, fromFile) {
  if (!/^\.\.?\//.test(specifier)) return undefined;
  const [path, suffix = ''] = splitQuery(specifier);
  const target = resolve(dirname(fromFile), path);
  if (isFile(target)) return undefined;
  const compiled = /\.(m|c)?js$/.exec(path)?.[0];
  if (compiled) {
    const source = path.slice(0, -compiled.length) + SOURCE_OF[compiled];
    return isFile(resolve(dirname(fromFile), source)) ? source + suffix : undefined;
  }
  if (isFile(`${target}.ts`)) return `${path}.ts${suffix}`;
  if (isDir(target) && isFile(join(target, 'index.ts')))
    return `${path.replace(/\/$/, '')}/index.ts${suffix}`;
  return undefined;
}

/** `./x.js?raw` → ['./x.js', '?raw']: a query or hash stays as it was. */
function splitQuery(specifier) {
  const at = specifier.search(/[?#]/);
  return at < 0 ? [specifier] : [specifier.slice(0, at), specifier.slice(at)];
}

/** Calls whose first argument is a module specifier relative to the file. */
const SPECIFIER_CALLS = new Set([
  'jest.unstable_mockModule',
  'jest.mock',
  'jest.doMock',
  'jest.unmock',
  'jest.requireActual',
  'jest.requireMock',
  'jest.createMockFromModule',
  'import.meta.resolve',
  'require.resolve',
  'require',
]);

function calleeName(expression) {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) {
    const left = ts.isMetaProperty(expression.expression) ? 'import.meta' : calleeName(expression.expression);
    return left === undefined ? undefined : `${left}.${expression.name.text}`;
  }
  return undefined;
}

const isImportMetaUrl = (node) =>
  node !== undefined &&
  ts.isPropertyAccessExpression(node) &&
  ts.isMetaProperty(node.expression) &&
  node.name.text === 'url';

/** Every string literal in `source` that is a module specifier (see the list at the top). */
export function specifierLiterals(source) {
  const found = [];
  const literal = (node) => {
    if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) found.push(node);
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    else if (ts.isCallExpression(node)) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) literal(node.arguments[0]);
      else if (SPECIFIER_CALLS.has(calleeName(node.expression))) literal(node.arguments[0]);
    } else if (ts.isNewExpression(node) && calleeName(node.expression) === 'URL') {
      if (isImportMetaUrl(node.arguments?.[1])) literal(node.arguments?.[0]);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      literal(node.moduleReference.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const scriptKind = (file) => (/\.(m|c)?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS);

/** Step 1 for one file: its text with every specifier rewritten, and what changed. */
export function rewriteSpecifiers(file, text = readFileSync(file, 'utf8')) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const edits = [];
  for (const node of specifierLiterals(source)) {
    const fixed = fixedSpecifier(node.text, file);
    if (fixed !== undefined)
      edits.push({ start: node.getStart(source) + 1, end: node.getEnd() - 1, from: node.text, to: fixed });
  }
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.to + out.slice(edit.end);
  }
  return { text: out, edits };
}

// ---- step 2: `type` on imports of types (TypeScript's quick fixes) ---------------------------

/** Diagnostics of verbatimModuleSyntax/isolatedModules that TypeScript fixes by adding `type`. */
const TYPE_ONLY_FIXES = ['convertToTypeOnlyImport', 'convertToTypeOnlyExport'];

function languageService(project) {
  const config = ts.getParsedCommandLineOfConfigFile(
    project,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  const texts = new Map();
  const versions = new Map();
  const host = {
    getCompilationSettings: () => config.options,
    getScriptFileNames: () => config.fileNames,
    getScriptVersion: (file) => String(versions.get(file) ?? 0),
    getScriptSnapshot: (file) => {
      const text = texts.get(file) ?? ts.sys.readFile(file);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => dirname(project),
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: ts.sys.fileExists,
    readFile: (file) => texts.get(file) ?? ts.sys.readFile(file),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const update = (file, text) => {
    texts.set(file, text);
    versions.set(file, (versions.get(file) ?? 0) + 1);
  };
  return { service, files: config.fileNames, update };
}

function applyChanges(text, changes) {
  let out = text;
  for (const change of [...changes].sort((a, b) => b.span.start - a.span.start)) {
    out =
      out.slice(0, change.span.start) + change.newText + out.slice(change.span.start + change.span.length);
  }
  return out;
}

/** Adds `type` where a file imports or re-exports a type; returns the files it changed. */
export function markTypeImports(project) {
  const { service, files, update } = languageService(project);
  const changed = new Set();
  for (const file of files.filter((f) => !f.includes('/node_modules/'))) {
    // A fix can make room for another (an import split in two): repeat until nothing is left.
    for (let round = 0; round < 5; round++) {
      const before = readFileSync(file, 'utf8');
      let text = before;
      for (const fixId of TYPE_ONLY_FIXES) {
        const fix = service.getCombinedCodeFix({ type: 'file', fileName: file }, fixId, {}, {});
        const edits = fix.changes.filter((c) => c.fileName === file).flatMap((c) => c.textChanges);
        if (edits.length === 0) continue;
        text = applyChanges(text, edits);
        update(file, text);
      }
      if (text === before) break;
      writeFileSync(file, text);
      changed.add(file);
    }
  }
  return [...changed];
}

// ---- the command ------------------------------------------------------------------------------

/** The projects whose imports step 2 marks (the ones `npm run typecheck` checks with Node's types). */
export const PROJECTS = ['tsconfig.json', 'loadtest/tsconfig.node.json', 'loadtest/tsconfig.k6.json'];

async function formatFiles(files) {
  if (files.length === 0) return;
  const prettier = await import('prettier');
  for (const file of files) {
    const options = await prettier.resolveConfig(file);
    const text = readFileSync(file, 'utf8');
    const out = await prettier.format(text, { ...options, filepath: file });
    if (out !== text) writeFileSync(file, out);
  }
}

async function main(args) {
  const check = args.includes('--check');
  const files = sourceFiles();
  const pending = [];
  const changed = new Set();
  for (const file of files) {
    const { text, edits } = rewriteSpecifiers(file);
    if (edits.length === 0) continue;
    for (const edit of edits) pending.push(`${relative(root, file)}: '${edit.from}' → '${edit.to}'`);
    if (!check) {
      writeFileSync(file, text);
      changed.add(file);
    }
  }
  if (check) {
    if (pending.length > 0) {
      console.error(pending.join('\n'));
      console.error(
        `${pending.length} relative import(s) do not name their TypeScript file, which Node needs to run the ` +
          'sources as they are: node scripts/dev/import-extensions.mjs',
      );
      // Not process.exit: a long list to a pipe would be cut off.
      process.exitCode = 1;
    }
    return;
  }
  for (const project of PROJECTS) {
    for (const file of markTypeImports(join(root, project))) changed.add(file);
  }
  await formatFiles([...changed]);
  console.log(`${pending.length} specifier(s) rewritten; ${changed.size} file(s) changed`);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  await main(process.argv.slice(2));
}
