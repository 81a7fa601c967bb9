// The rules OpenAI applies to a function tool with strict: true (structured outputs, "Supported
// schemas"), written out independently of gateway/src/openapi/tool-dialects.ts so the test holds
// the dialect against the rules rather than against itself. Returns every violation found.
type Schema = Record<string, unknown>;

const KEYWORDS = new Set([
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);
const FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const MAX_DEPTH = 10;
const MAX_PROPERTIES = 5000;
const MAX_ENUM_VALUES = 1000;

export function strictViolations(tool: {
  type?: unknown;
  name?: unknown;
  strict?: unknown;
  parameters?: unknown;
}): string[] {
  const problems: string[] = [];
  if (tool.type !== 'function') problems.push('type is not function');
  if (tool.strict !== true) problems.push('strict is not true');
  if (typeof tool.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) problems.push('bad name');
  const root = tool.parameters as Schema | undefined;
  if (!root || root.type !== 'object') problems.push('parameters: the root is not an object');
  if (root?.anyOf) problems.push('parameters: the root is an anyOf');
  const counts = { properties: 0, enumValues: 0 };
  if (root) check(root, 'parameters', 1, problems, counts);
  if (counts.properties > MAX_PROPERTIES) problems.push(`${counts.properties} properties`);
  if (counts.enumValues > MAX_ENUM_VALUES) problems.push(`${counts.enumValues} enum values`);
  return problems;
}

function check(
  schema: Schema,
  at: string,
  depth: number,
  problems: string[],
  counts: { properties: number; enumValues: number },
): void {
  if (depth > MAX_DEPTH) problems.push(`${at}: nested deeper than ${MAX_DEPTH}`);
  for (const keyword of Object.keys(schema)) {
    if (!KEYWORDS.has(keyword)) problems.push(`${at}: unsupported keyword ${keyword}`);
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (!types.length && !schema.anyOf) problems.push(`${at}: no type`);
  for (const type of types) if (!TYPES.has(String(type))) problems.push(`${at}: type ${String(type)}`);
  if (schema.format !== undefined && !FORMATS.has(String(schema.format)))
    problems.push(`${at}: format ${String(schema.format)}`);
  if (Array.isArray(schema.enum)) counts.enumValues += schema.enum.length;
  if (Array.isArray(schema.anyOf)) {
    (schema.anyOf as Schema[]).forEach((member, i) =>
      check(member, `${at}.anyOf[${i}]`, depth, problems, counts),
    );
  }
  if (types.includes('object')) {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    if (schema.additionalProperties !== false) problems.push(`${at}: object not closed`);
    const required = (schema.required ?? []) as string[];
    const names = Object.keys(properties);
    const missing = names.filter((name) => !required.includes(name));
    if (missing.length) problems.push(`${at}: not required: ${missing.join(', ')}`);
    counts.properties += names.length;
    for (const [name, member] of Object.entries(properties)) {
      check(member, `${at}.${name}`, depth + 1, problems, counts);
    }
  }
  if (types.includes('array')) {
    if (!schema.items || typeof schema.items !== 'object') problems.push(`${at}: array without items`);
    else check(schema.items as Schema, `${at}[]`, depth + 1, problems, counts);
  }
}
