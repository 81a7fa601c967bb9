// A message's shape and its descriptions are declared once, in proto; the gateway's response
// schemas are derived (scripts/gen-http-schemas.ts, docs/decisions.md "One declaration per
// message"). This proves the two things that keep it so: `--check` refuses a proto change that was
// not regenerated, and no hand-written gateway schema repeats a proto comment's sentence.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

const root = resolve(import.meta.dirname, '..');
const script = join(root, 'scripts', 'gen-http-schemas.ts');

/** Runs the generator on a copy of the tree; the exit code and what it printed. */
function generate(copy: string, ...args: string[]): { code: number; output: string } {
  try {
    const output = execFileSync(process.execPath, [script, ...args], {
      env: { ...process.env, FIELDOPS_GEN_ROOT: copy },
      stdio: 'pipe',
      encoding: 'utf8',
    });
    return { code: 0, output };
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string };
    return { code: failed.status, output: `${failed.stdout}${failed.stderr}` };
  }
}

describe('npm run gen:check holds the HTTP schemas to proto', () => {
  let copy: string;
  beforeAll(() => {
    // What the generator reads and writes: the proto, the gateway's registry and endpoint kernel, and the
    // formatting rules the generated files follow.
    copy = mkdtempSync(join(tmpdir(), 'fieldops-http-schemas-test-'));
    cpSync(join(root, 'proto'), join(copy, 'proto'), {
      recursive: true,
      filter: (p) => !p.includes('/src/'),
    });
    // The registry's families, and the endpoint kernel where the shapes families share live.
    for (const folder of ['registry', 'endpoint']) {
      cpSync(join(root, 'gateway', 'src', folder), join(copy, 'gateway', 'src', folder), { recursive: true });
    }
    cpSync(join(root, '.prettierrc.json'), join(copy, '.prettierrc.json'));
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));
  // Each generation runs buf and node; on a loaded machine that is slow, never a measure.

  it('passes on the committed tree, then fails once a field is added to Deal without npm run gen', () => {
    expect(generate(copy, '--check')).toMatchObject({ code: 0 });

    const deals = join(copy, 'proto', 'fieldops', 'crm', 'v1', 'deals.proto');
    const text = readFileSync(deals, 'utf8');
    writeFileSync(
      deals,
      text.replace(
        '  string stage_changed_at = 11;',
        '  string stage_changed_at = 11;\n  string probe = 99;',
      ),
    );
    const stale = generate(copy, '--check');
    expect(stale.code).toBe(1);
    expect(stale.output).toContain('gateway/src/registry/deals/deals.gen.ts');

    // Regenerated, the field is in the schema the gateway validates and documents, and the check passes.
    expect(generate(copy)).toMatchObject({ code: 0 });
    const generated = readFileSync(join(copy, 'gateway', 'src', 'registry', 'deals', 'deals.gen.ts'), 'utf8');
    expect(generated).toMatch(/stageChangedAt: z\.string\(\),\s+probe: z\.string\(\),/);
    expect(generate(copy, '--check')).toMatchObject({ code: 0 });
  }, 600_000);

  it('fails when a generated file is edited by hand', () => {
    const file = join(copy, 'gateway', 'src', 'registry', 'leads', 'leads.gen.ts');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('Where the lead stated it.', 'Where it was said.'),
    );
    const stale = generate(copy, '--check');
    expect(stale.code).toBe(1);
    expect(stale.output).toContain('gateway/src/registry/leads/leads.gen.ts');
  }, 600_000);

  it('publishes a @json string as its parsed value, and refuses @json on a field not named <name>_json', () => {
    const reports = readFileSync(
      join(copy, 'gateway', 'src', 'registry', 'reports', 'reports.gen.ts'),
      'utf8',
    );
    expect(reports).toMatch(/filter: z\s*\.record\(z\.string\(\), z\.string\(\)\)/);
    expect(reports).not.toContain('filterJson');

    const exportsProto = join(copy, 'proto', 'fieldops', 'exports', 'v1', 'exports.proto');
    const text = readFileSync(exportsProto, 'utf8');
    writeFileSync(exportsProto, text.replace('string filter_json = 5;', 'string filter_text = 5;'));
    try {
      const refused = generate(copy, '--check');
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(
        'ReportFigure.filter_text: @json marks a string field named <name>_json',
      );
    } finally {
      writeFileSync(exportsProto, text);
    }
  }, 600_000);
});

// --- Description sentences written twice ---------------------------------------------------

const files = (dir: string, ending: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, ending) : path.endsWith(ending) ? [path] : [];
  });

/** Sentences (split after . ! ?) of four words or more, as the issue counted them. */
const sentences = (text: string): string[] =>
  text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim().replace(/[.;:]$/, ''))
    .filter((s) => s.split(' ').length >= 4);

/** Every proto comment, consecutive `//` lines read as one text. */
function protoSentences(): Set<string> {
  const found = new Set<string>();
  for (const file of files(join(root, 'proto', 'fieldops'), '.proto')) {
    let block: string[] = [];
    for (const line of [...readFileSync(file, 'utf8').split('\n'), '']) {
      const comment = /\/\/\s?(.*)$/.exec(line);
      if (comment) block.push(comment[1] ?? '');
      else if (block.length) {
        sentences(block.join(' ')).forEach((s) => found.add(s));
        block = [];
      }
    }
  }
  return found;
}

const LITERAL = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`([^`]*)`/g;

/**
 * The text of every `.describe(...)` written by hand in the registry and the endpoint kernel (whose
 * billing schemas proposals and invoices share), not the derived *.gen.ts.
 */
function describedSentences(): { file: string; sentence: string }[] {
  const handWritten = ['registry', 'endpoint']
    .flatMap((folder) => files(join(root, 'gateway', 'src', folder), '.ts'))
    .filter((f) => !f.endsWith('.gen.ts'));
  return handWritten.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [
      ...text.matchAll(/\.describe\(\s*((?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`)(?:\s*\+\s*)?)+/g),
    ].flatMap((call) => {
      const literal = [...call[0].matchAll(LITERAL)].map((m) =>
        (m[1] ?? m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1'),
      );
      return sentences(literal.join('')).map((sentence) => ({ file: relative(root, file), sentence }));
    });
  });
}

describe('a description is written once', () => {
  it('no .describe() in the gateway registry repeats a sentence of a proto comment', () => {
    const proto = protoSentences();
    // The counter reads what it should: the proto side is not empty, and a derived file is skipped.
    expect(proto.has('Why the deal was lost; present only while it is lost')).toBe(true);
    const repeated = describedSentences().filter(({ sentence }) => proto.has(sentence));
    expect(repeated).toEqual([]);
  });
});
