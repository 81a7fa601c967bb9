#!/usr/bin/env node
// Generates the TypeScript gRPC stubs (proto/src/gen) from proto/ with buf and the local
// ts-proto plugin. `--check` generates into a temporary folder and fails when the committed
// stubs differ, so CI catches a .proto change without `npm run gen`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const protoDir = resolve(import.meta.dirname, '..', 'proto');
const buf = resolve(import.meta.dirname, '..', 'node_modules', '.bin', 'buf');
const committed = join(protoDir, 'src', 'gen');
const check = process.argv.includes('--check');

function generate(outDir) {
  execFileSync(buf, ['lint'], { cwd: protoDir, stdio: 'inherit' });
  const template = readFileSync(join(protoDir, 'buf.gen.yaml'), 'utf8').replace(
    'out: src/gen',
    `out: ${outDir}`,
  );
  const templatePath = join(mkdtempSync(join(tmpdir(), 'fieldops-gen-')), 'buf.gen.yaml');
  writeFileSync(templatePath, template);
  execFileSync(buf, ['generate', '--template', templatePath], { cwd: protoDir, stdio: 'inherit' });
}

function listFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

if (!check) {
  generate(committed);
  process.exit(0);
}
const fresh = mkdtempSync(join(tmpdir(), 'fieldops-gen-check-'));
generate(fresh);
const a = listFiles(fresh)
  .map((f) => relative(fresh, f))
  .sort();
const b = listFiles(committed)
  .map((f) => relative(committed, f))
  .sort();
const stale = a.filter(
  (f) => !b.includes(f) || readFileSync(join(fresh, f), 'utf8') !== readFileSync(join(committed, f), 'utf8'),
);
const extra = b.filter((f) => !a.includes(f));
rmSync(fresh, { recursive: true, force: true });
if (stale.length || extra.length) {
  console.error(
    `Generated gRPC stubs are stale: ${[...stale, ...extra].join(', ')}. Run \`npm run gen\` and commit.`,
  );
  process.exit(1);
}
console.log('gRPC stubs are up to date.');
