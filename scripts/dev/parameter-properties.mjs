#!/usr/bin/env node
// Why: Node's type stripping erases types, it does not generate code, so a constructor's
// parameter properties (`constructor(private readonly x: X)`) are refused (tsconfig's
// erasableSyntaxOnly flags them). This writes each as the field and assignment it stands for:
//
//   constructor(private readonly x: X) {}   →   private readonly x: X;
//                                                constructor(x: X) { this.x = x; }
//
// The assignments come first in the body (after `super(…)`). A field initialiser that reads such a
// property used to run after it was assigned and now runs before: `npm run typecheck` reports it
// (TS2729, "used before its initialization"); move that initialiser into the constructor.
//
//   node scripts/dev/parameter-properties.mjs [files…]   # default: every .ts file git knows
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..', '..');
const PROPERTY_MODIFIERS = new Set([
  ts.SyntaxKind.PublicKeyword,
  ts.SyntaxKind.PrivateKeyword,
  ts.SyntaxKind.ProtectedKeyword,
  ts.SyntaxKind.ReadonlyKeyword,
  ts.SyntaxKind.OverrideKeyword,
]);

const propertyModifiers = (param) =>
  (ts.getModifiers(param) ?? []).filter((m) => PROPERTY_MODIFIERS.has(m.kind));

/** The text of `file` with every parameter property written out, or undefined when it has none. */
export function rewrite(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits = [];
  const visit = (node) => {
    if (ts.isConstructorDeclaration(node) && node.body) constructorEdits(source, text, node, edits);
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (edits.length === 0) return undefined;
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start || b.order - a.order)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}

function constructorEdits(source, text, ctor, edits) {
  const params = ctor.parameters.filter((p) => propertyModifiers(p).length > 0);
  if (params.length === 0) return;
  const lineStart = text.lastIndexOf('\n', ctor.getStart(source)) + 1;
  const indent = /^\s*/.exec(text.slice(lineStart))[0];
  const fields = params.map((p) => {
    const modifiers = propertyModifiers(p)
      .map((m) => m.getText(source))
      .join(' ');
    const name = p.name.getText(source);
    const type = p.type ? `: ${p.type.getText(source)}` : '';
    const optional = p.questionToken ? '?' : '';
    return `${indent}${modifiers} ${name}${optional}${type};\n`;
  });
  edits.push({ start: lineStart, end: lineStart, text: fields.join(''), order: 0 });
  for (const p of params) {
    for (const m of propertyModifiers(p)) {
      let end = m.getEnd();
      while (text[end] === ' ') end++;
      edits.push({ start: m.getStart(source), end, text: '', order: 1 });
    }
  }
  const body = ctor.body;
  const superCall = body.statements.find(
    (s) =>
      ts.isExpressionStatement(s) &&
      ts.isCallExpression(s.expression) &&
      s.expression.expression.kind === ts.SyntaxKind.SuperKeyword,
  );
  const at = superCall ? superCall.getEnd() : body.getStart(source) + 1;
  const inner = `${indent}  `;
  const assignments = params.map(
    (p) => `\n${inner}this.${p.name.getText(source)} = ${p.name.getText(source)};`,
  );
  const closeOnSameLine =
    body.statements.length === 0 && !text.slice(body.getStart(source), body.getEnd()).includes('\n');
  edits.push({
    start: at,
    end: at,
    text: assignments.join('') + (closeOnSameLine ? `\n${indent}` : ''),
    order: 2,
  });
}

const files =
  process.argv.length > 2
    ? process.argv.slice(2).map((f) => resolve(f))
    : execFileSync('git', ['ls-files', '*.ts'], { cwd: root, encoding: 'utf8' })
        .split('\n')
        .filter((f) => f && !f.endsWith('.d.ts'))
        .map((f) => resolve(root, f));
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const out = rewrite(file, text);
  if (out !== undefined) {
    writeFileSync(file, out);
    console.log(file);
  }
}
