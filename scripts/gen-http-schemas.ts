// Writes the gateway's response and resource schemas (gateway/src/registry/<family>/<family>.gen.ts)
// from the proto messages that carry an `@http` annotation, so a message's shape and its
// descriptions are declared once, in proto (docs/decisions.md, "One declaration per message").
// The proto is read through buf's image (descriptors with their comments); no second parser.
//
// In a leading comment, the lines before the first `@` line are the description: the proto's doc
// and the HTTP schema's `.describe()` text at once. `@` lines shape the HTTP schema
// (docs/adding-an-endpoint.md lists them); `@grpc` starts text for gRPC readers only.
// `--check` generates in memory and fails when a committed file differs, as gen-proto does.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';

const root = resolve(process.env.FIELDOPS_GEN_ROOT ?? join(import.meta.dirname, '..'));
const protoDir = join(root, 'proto');
const registryDir = join(root, 'gateway', 'src', 'registry');
const buf = join(import.meta.dirname, '..', 'node_modules', '.bin', 'buf');
const check = process.argv.includes('--check');

interface FieldDescriptor {
  name: string;
  label: string;
  type: string;
  typeName?: string;
  jsonName: string;
  proto3Optional?: boolean;
  oneofIndex?: number;
}
interface MessageDescriptor {
  name: string;
  field?: FieldDescriptor[];
  nestedType?: MessageDescriptor[];
  options?: { mapEntry?: boolean };
}
interface FileDescriptor {
  name: string;
  package: string;
  messageType?: MessageDescriptor[];
  sourceCodeInfo?: { location: { path?: number[]; leadingComments?: string }[] };
}

/** A leading comment split into its description and its `@` annotations. */
interface Doc {
  description?: string;
  tags: Map<string, string>;
}
interface Message {
  fullName: string;
  file: string;
  descriptor: MessageDescriptor;
  doc: Doc;
  fields: { descriptor: FieldDescriptor; doc: Doc }[];
}

/**
 * Messages written by hand once for every family (gateway/src/endpoint/common.schemas.ts): a field
 * of one of these types points at the shared schema instead of a copy.
 */
const COMMON_MODULE = join('endpoint', 'common.schemas.ts');
const SHARED: Record<string, { name: string; module: string }> = {
  'fieldops.common.v1.Money': { name: 'moneySchema', module: COMMON_MODULE },
  'fieldops.common.v1.FieldChange': { name: 'fieldChange', module: COMMON_MODULE },
};

const INTEGER = new Set([
  'TYPE_INT32',
  'TYPE_INT64',
  'TYPE_UINT32',
  'TYPE_UINT64',
  'TYPE_SINT32',
  'TYPE_SINT64',
]);
const SCALAR: Record<string, string> = {
  TYPE_STRING: 'z.string()',
  TYPE_BOOL: 'z.boolean()',
  TYPE_DOUBLE: 'z.number()',
  TYPE_FLOAT: 'z.number()',
};

function readImage(): FileDescriptor[] {
  const dir = mkdtempSync(join(tmpdir(), 'fieldops-http-schemas-'));
  try {
    execFileSync(buf, ['build', '-o', join(dir, 'image.json')], { cwd: protoDir, stdio: 'inherit' });
    return (JSON.parse(readFileSync(join(dir, 'image.json'), 'utf8')) as { file: FileDescriptor[] }).file;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function parseDoc(comment: string | undefined): Doc {
  const lines = (comment ?? '').split('\n').map((line) => line.trim());
  const tags = new Map<string, string>();
  const text: string[] = [];
  let grpcOnly = false;
  for (const line of lines) {
    const tag = /^@([\w-]+)\s*(.*)$/.exec(line);
    if (tag) {
      grpcOnly = tag[1] === 'grpc';
      if (!grpcOnly) tags.set(tag[1] ?? '', tag[2] ?? '');
    } else if (!grpcOnly && !tags.size && line) text.push(line);
  }
  return { description: text.length ? text.join(' ') : undefined, tags };
}

/** Every message of the image by full name, with the comments of it and of its fields. */
function messages(files: FileDescriptor[]): Map<string, Message> {
  const found = new Map<string, Message>();
  for (const file of files) {
    const comments = new Map(
      (file.sourceCodeInfo?.location ?? []).map((l) => [(l.path ?? []).join('.'), l.leadingComments]),
    );
    const visit = (descriptor: MessageDescriptor, prefix: string, path: number[]) => {
      const fullName = `${prefix}.${descriptor.name}`;
      found.set(fullName, {
        fullName,
        file: file.name,
        descriptor,
        doc: parseDoc(comments.get(path.join('.'))),
        fields: (descriptor.field ?? []).map((field, i) => ({
          descriptor: field,
          doc: parseDoc(comments.get([...path, 2, i].join('.'))),
        })),
      });
      (descriptor.nestedType ?? []).forEach((nested, i) => visit(nested, fullName, [...path, 3, i]));
    };
    (file.messageType ?? []).forEach((message, i) => visit(message, file.package, [4, i]));
  }
  return found;
}

/**
 * Where a family's generated file lives: beside its endpoints (`registry/deals/deals.gen.ts`), or,
 * for shapes families share through the endpoint kernel's `endpoint/<name>.schemas.ts` (billing),
 * beside that file.
 */
function outPath(family: string): string | undefined {
  if (existsSync(join(registryDir, family))) return join(registryDir, family, `${family}.gen.ts`);
  const kernelDir = join(registryDir, '..', 'endpoint');
  if (existsSync(join(kernelDir, `${family}.schemas.ts`))) return join(kernelDir, `${family}.gen.ts`);
  return undefined;
}

/** An import specifier from one generated file to a module under gateway/src (`.ts`, the file Node's type stripping loads). */
function specifier(fromFile: string, toModule: string): string {
  const path = relative(dirname(fromFile), toModule).split('\\').join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

/** `@http <family> <exportName>`: the family folder the schema belongs to and its export. */
function target(message: Message): { family: string; name: string } | undefined {
  const http = message.doc.tags.get('http');
  if (http === undefined) return undefined;
  const [family, name] = http.split(/\s+/);
  if (!family || !name) {
    throw new Error(`${message.file}: ${message.fullName}: write @http as "@http <family> <exportName>".`);
  }
  return { family, name };
}

const CONSTANT = /^[A-Z][A-Z0-9_]*(\.[A-Za-z]\w*)*$/;

/** `@enum A_CONSTANT` (from @fieldops/contracts) or `@enum one two three` (the values). */
function enumOf(values: string, uses: Set<string>): string {
  const words = values.split(/\s+/).filter(Boolean);
  const [only] = words;
  if (words.length === 1 && only && CONSTANT.test(only)) {
    uses.add(only.replace(/\..*$/, ''));
    return `z.enum(${only})`;
  }
  return `z.enum(${JSON.stringify(words)})`;
}

class FamilyWriter {
  readonly contracts = new Set<string>();
  /** Shared schemas used, by the module that declares them (relative to gateway/src). */
  readonly shared = new Map<string, Set<string>>();
  readonly imports = new Map<string, Set<string>>();
  readonly body: string[] = [];
  private readonly written = new Set<string>();

  readonly family: string;
  private readonly all: Map<string, Message>;
  constructor(family: string, all: Map<string, Message>) {
    this.family = family;
    this.all = all;
  }

  write(message: Message): void {
    if (this.written.has(message.fullName)) return;
    this.written.add(message.fullName);
    const { name } = target(message)!;
    const expr = this.object(message, new Set([message.fullName]));
    const id = message.doc.tags.get('id');
    const described = message.doc.description
      ? `${expr}.describe(${JSON.stringify(message.doc.description)})`
      : expr;
    this.body.push(
      `${commentOf(message)}export const ${name} = ${id ? `${described}.meta({ id: ${JSON.stringify(id)} })` : described};`,
      `export type ${typeName(name)} = z.infer<typeof ${name}>;`,
      '',
    );
  }

  /**
   * `@docs <family> <exportName>`: a request message's field descriptions, for the hand-written
   * request body (its limits and trimming differ over HTTP; its sentences do not).
   */
  writeDocs(message: Message, name: string): void {
    const entries = message.fields
      .filter(({ doc }) => doc.description)
      .map(({ descriptor, doc }) => `${descriptor.jsonName}: ${JSON.stringify(doc.description)}`);
    this.body.push(`${commentOf(message)}export const ${name} = { ${entries.join(', ')} } as const;`, '');
  }

  private object(message: Message, seen: Set<string>): string {
    const members = message.fields
      .filter(({ doc }) => !doc.tags.has('omit'))
      .map(
        ({ descriptor, doc }) =>
          `${memberName(message, descriptor, doc)}: ${this.field(message, descriptor, doc, seen)}`,
      );
    // `@strict`: a shape the API also reads from callers, where an unknown member is refused.
    // `@partial`: every member may be absent over HTTP (a record kept as it came, like a signature).
    const shape = `z.${message.doc.tags.has('strict') ? 'strictObject' : 'object'}({ ${members.join(', ')} })`;
    return message.doc.tags.has('partial') ? `${shape}.partial()` : shape;
  }

  private field(message: Message, field: FieldDescriptor, doc: Doc, seen: Set<string>): string {
    const where = `${message.file}: ${message.fullName}.${field.name}`;
    const tags = doc.tags;
    const entry = field.typeName ? this.all.get(field.typeName.slice(1)) : undefined;
    let expr: string;
    if (entry?.descriptor.options?.mapEntry) {
      const [key, value] = entry.fields;
      if (!key || !value) throw new Error(`${where}: a map entry without key and value.`);
      const keyExpr = tags.has('key')
        ? enumOf(tags.get('key')!, this.contracts)
        : this.single(where, key.descriptor, key.doc, seen);
      expr = `z.record(${keyExpr}, ${this.single(where, value.descriptor, value.doc, seen)})`;
    } else {
      expr = this.single(where, field, doc, seen);
      if (field.label === 'LABEL_REPEATED') expr = `z.array(${expr})`;
    }
    if (tags.has('nullable')) expr += '.nullable()';
    const optional = tags.has('optional') || (field.proto3Optional && !tags.has('required'));
    if (optional) expr += '.optional()';
    if (doc.description) expr += `.describe(${JSON.stringify(doc.description)})`;
    return expr;
  }

  /** One value of a field: its scalar, its enum, or its message (shared, generated or inline). */
  private single(where: string, field: FieldDescriptor, doc: Doc, seen: Set<string>): string {
    const tags = doc.tags;
    if (tags.has('enum')) return enumOf(tags.get('enum')!, this.contracts);
    // `@by-hand`: the HTTP file declares this member (a request shape the answer echoes) with
    // `.extend`, which keeps its place; the generated schema only holds the place.
    if (tags.has('by-hand')) return 'z.unknown()';
    // `@json <type>`: a string in proto that holds JSON, its parsed value over HTTP (memberName
    // drops the `_json` suffix); the gateway parses it on the way out.
    if (tags.has('json')) return this.json(where, tags.get('json')!, seen);
    if (field.type === 'TYPE_MESSAGE') {
      return this.reference(where, field.typeName!.slice(1), seen, tags.has('inline'));
    }
    // `@number`: an integer the API has always published as a plain number (byte counts).
    const integer = INTEGER.has(field.type);
    let expr = integer ? (tags.has('number') ? 'z.number()' : 'z.number().int()') : SCALAR[field.type];
    if (!expr) throw new Error(`${where}: ${field.type} has no HTTP shape; mark the field @omit.`);
    if (tags.has('min')) expr += `.min(${Number(tags.get('min'))})`;
    if (tags.has('max')) expr += `.max(${Number(tags.get('max'))})`;
    return expr;
  }

  /** The HTTP shape of a `@json` value: a proto scalar's name, `map<scalar, type>`, or a message's full name. */
  private json(where: string, type: string, seen: Set<string>): string {
    const map = /^map<\s*(\w+)\s*,\s*(.+?)\s*>$/.exec(type.trim());
    if (map) return `z.record(${jsonScalar(where, map[1] ?? '')}, ${this.json(where, map[2] ?? '', seen)})`;
    const name = type.trim().replace(/^\./, '');
    if (/^[a-z]\w*$/.test(name)) return jsonScalar(where, name);
    return this.reference(where, name, seen);
  }

  private reference(where: string, fullName: string, seen: Set<string>, inline = false): string {
    const shared = SHARED[fullName];
    if (shared && !inline) {
      this.shared.set(shared.module, (this.shared.get(shared.module) ?? new Set()).add(shared.name));
      return shared.name;
    }
    const message = this.all.get(fullName);
    if (!message) throw new Error(`${where}: unknown message ${fullName}.`);
    if (seen.has(fullName)) throw new Error(`${where}: ${fullName} contains itself; HTTP schemas are trees.`);
    const named = target(message);
    if (!named || inline) return this.object(message, new Set([...seen, fullName]));
    if (named.family !== this.family) {
      const from = specifier(outPath(this.family)!, outPath(named.family)!);
      this.imports.set(from, (this.imports.get(from) ?? new Set()).add(named.name));
    } else {
      this.write(message);
    }
    return named.name;
  }
}

/** A JSON value's proto scalar type (`@json string`, `@json map<string, double>`) as its zod schema. */
function jsonScalar(where: string, type: string): string {
  if (INTEGER.has(`TYPE_${type.toUpperCase()}`)) return 'z.number().int()';
  const expr = SCALAR[`TYPE_${type.toUpperCase()}`];
  if (!expr) throw new Error(`${where}: @json ${type} is not a proto scalar, map<…> or message.`);
  return expr;
}

/** A field's HTTP member name: its JSON name, less the `Json` suffix of a `@json` field. */
function memberName(message: Message, field: FieldDescriptor, doc: Doc): string {
  if (!doc.tags.has('json')) return field.jsonName;
  const name = field.jsonName.replace(/Json$/, '');
  if (field.type !== 'TYPE_STRING' || name === field.jsonName || !name) {
    throw new Error(
      `${message.file}: ${message.fullName}.${field.name}: @json marks a string field named <name>_json.`,
    );
  }
  return name;
}

const typeName = (name: string): string => {
  const base = name.replace(/Schema$/, '');
  return base.charAt(0).toUpperCase() + base.slice(1);
};

const commentOf = (message: Message): string => `/** ${message.fullName} (${message.file}). */\n`;

function importLine(names: Set<string>, from: string): string {
  return `import { ${[...names].sort().join(', ')} } from '${from}';`;
}

function familyText(writer: FamilyWriter): string {
  const imports = [
    writer.contracts.size ? importLine(writer.contracts, '@fieldops/contracts') : '',
    writer.body.some((line) => line.includes('z.')) ? "import { z } from 'zod';" : '',
    ...[...writer.shared]
      .sort(([a], [b]) => (a < b ? 1 : -1))
      .map(([module, names]) =>
        importLine(names, specifier(outPath(writer.family)!, join(registryDir, '..', module))),
      ),
    ...[...writer.imports]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([from, names]) => importLine(names, from)),
  ].filter(Boolean);
  return [
    `// Generated by scripts/gen-http-schemas.ts (npm run gen) from the proto messages marked`,
    `// \`@http ${writer.family} …\`; do not edit. Change the .proto and run npm run gen.`,
    ...imports,
    '',
    ...writer.body,
  ].join('\n');
}

async function generate(): Promise<Map<string, string>> {
  const all = messages(readImage());
  const writers = new Map<string, FamilyWriter>();
  for (const message of all.values()) {
    const docs = message.doc.tags.get('docs')?.split(/\s+/);
    const named = target(message) ?? (docs?.[0] && docs[1] ? { family: docs[0], name: docs[1] } : undefined);
    if (!named) continue;
    if (!outPath(named.family)) {
      throw new Error(
        `${message.file}: ${message.fullName}: no registry family folder or shared file "${named.family}".`,
      );
    }
    const writer = writers.get(named.family) ?? new FamilyWriter(named.family, all);
    writers.set(named.family, writer);
    if (target(message)) writer.write(message);
    else writer.writeDocs(message, named.name);
  }
  const config = await resolveConfig(join(registryDir, 'index.ts'));
  const out = new Map<string, string>();
  for (const [family, writer] of writers) {
    const path = outPath(family)!;
    out.set(path, await format(familyText(writer), { ...config, filepath: path }));
  }
  return out;
}

/** The generated files now committed, so a family whose last `@http` went away loses its file. */
function committed(): string[] {
  return readdirSync(registryDir, { withFileTypes: true })
    .map((entry) =>
      entry.isDirectory()
        ? join(registryDir, entry.name, `${entry.name}.gen.ts`)
        : entry.name.endsWith('.schemas.ts')
          ? join(registryDir, entry.name.replace(/\.schemas\.ts$/, '.gen.ts'))
          : '',
    )
    .filter((path) => path && existsSync(path));
}

const fresh = await generate();
const stale = [
  ...[...fresh]
    .filter(([path, text]) => !existsSync(path) || readFileSync(path, 'utf8') !== text)
    .map(([p]) => p),
  ...committed().filter((path) => !fresh.has(path)),
];
if (check) {
  if (stale.length) {
    console.error(
      `HTTP schemas are stale against proto: ${stale.map((p) => p.slice(root.length + 1)).join(', ')}. ` +
        'Run `npm run gen` and commit.',
    );
    process.exit(1);
  }
  console.log('HTTP schemas are up to date with proto.');
} else {
  for (const path of committed()) if (!fresh.has(path)) rmSync(path);
  for (const [path, text] of fresh) writeFileSync(path, text);
}
