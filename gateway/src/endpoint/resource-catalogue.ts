// GET /resources, derived from the endpoint registry (one source of truth, nothing listed by
// hand): a kind is what a single-resource read (`GET …/:param`) answers, e.g. GET /leads/:id →
// {lead: …}, named after the read's path (`leads` → `lead`, `capture` → `capture`): that is the
// name services give the resource in their events, so the change feed (GET /changes) and this
// catalogue agree even where the response member is named otherwise (a capture session answers as
// {session: …}). Its fields come from that response member, its list is the GET on the parent
// path, its state machine from the writes below its path, and its links from fields named
// `<kind>Id` that name another kind.
import { z } from 'zod';
import { jsonSchemaOf, type JsonSchema } from './json-schema.ts';
import type { EndpointDef } from './types.ts';

export interface ResourceField {
  name: string;
  type: string;
  required: boolean;
  enum?: unknown[];
  description?: string;
}

export interface ResourceKind {
  kind: string;
  /** The member of the read's response holding the resource: the kind, except `session` for `capture`. */
  member: string;
  /** The scope kind a token needs `read` on (spec "Scopes"). */
  scopeKind: string;
  /** Whether a project-restricted token sees only its projects' resources of this kind. */
  projectScoped: boolean;
  endpoints: { read: string; list: string | null; writes: string[] };
  fields: ResourceField[];
  links: { field: string; kind: string }[];
  stateMachine: { field: string; moves: Readonly<Record<string, readonly string[]>> } | null;
}

const shapeOf = (schema: z.ZodType): Record<string, z.ZodType> | null =>
  schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : null;

const unwrap = (schema: z.ZodType): z.ZodType =>
  schema instanceof z.ZodOptional || schema instanceof z.ZodNullable
    ? unwrap(schema.unwrap() as z.ZodType)
    : schema;

/** `/projects/:id/records/:recordId` → `/projects/:/records/:`, so paths compare by shape. */
const pattern = (path: string): string => path.replace(/:\w+/g, ':');

const isSingleRead = (endpoint: EndpointDef): boolean =>
  endpoint.method === 'GET' && /\/:\w+$/.test(endpoint.path) && endpoint.auth === 'scope';

/** `/projects/:id/runs/:runId` → `run`, `/projects/:id/capture/:sessionId` → `capture`. */
function kindOfPath(path: string): string | null {
  const collection = /\/(\w+)\/:\w+$/.exec(path)?.[1];
  if (!collection) return null;
  return collection.endsWith('s') ? collection.slice(0, -1) : collection;
}

/**
 * The object schemas a resource is: the object itself, or each option of a union discriminated on
 * a field (a project record has one schema per kind); none when it is neither or has no id.
 */
function objectsOf(schema: z.ZodType): z.ZodObject[] {
  if (schema instanceof z.ZodObject) return 'id' in schema.shape ? [schema] : [];
  if (!(schema instanceof z.ZodDiscriminatedUnion)) return [];
  const options = schema.options as z.ZodType[];
  const objects = options.filter((option): option is z.ZodObject => option instanceof z.ZodObject);
  return objects.length === options.length && objects.every((option) => 'id' in option.shape) ? objects : [];
}

/** The member of a read's response holding the resource, e.g. `lead` of {lead, etag, …}. */
function resourceMember(endpoint: EndpointDef): Found['member'] | null {
  const shape = shapeOf(endpoint.response);
  if (!shape) return null;
  for (const [name, member] of Object.entries(shape)) {
    const objects = objectsOf(unwrap(member));
    if (objects.length) return { kind: kindOfPath(endpoint.path) ?? name, name, schemas: objects };
  }
  return null;
}

function typeOf(json: JsonSchema): string {
  if (typeof json.type === 'string')
    return json.type === 'array' ? `${typeOf((json.items as JsonSchema) ?? {})}[]` : json.type;
  if (Array.isArray(json.type)) return json.type.join('|');
  const options = (json.anyOf ?? json.oneOf) as JsonSchema[] | undefined;
  if (options) return options.map(typeOf).join('|');
  return json.enum ? 'string' : 'any';
}

/**
 * The fields of a resource of one or more object schemas: every field any of them has, required
 * where all require it, with the values of an enum from all of them (a record's kind and status).
 */
function fieldsOfAll(schemas: readonly z.ZodObject[]): ResourceField[] {
  const each = schemas.map(fieldsOf);
  const byName = new Map<string, ResourceField>();
  for (const field of each.flat()) {
    const known = byName.get(field.name);
    if (!known) {
      const everywhere = each.every((fields) => fields.some((f) => f.name === field.name && f.required));
      byName.set(field.name, { ...field, required: everywhere });
    } else if (known.enum && field.enum)
      byName.set(field.name, { ...known, enum: [...new Set([...known.enum, ...field.enum])] });
  }
  return [...byName.values()];
}

function fieldsOf(schema: z.ZodObject): ResourceField[] {
  const json = jsonSchemaOf(schema, 'output');
  const properties = (json.properties as Record<string, JsonSchema> | undefined) ?? {};
  const required = (json.required as string[] | undefined) ?? [];
  return Object.entries(properties).map(([name, property]) => ({
    name,
    type: typeOf(property),
    required: required.includes(name),
    ...(Array.isArray(property.enum) ? { enum: property.enum } : {}),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

const route = (endpoint: EndpointDef): string => `${endpoint.method} /api/v1${endpoint.path}`;

interface Found {
  read: EndpointDef;
  member: { kind: string; name: string; schemas: z.ZodObject[] };
  readPattern: string;
  listPattern: string;
}

/** How closely a write's path belongs to a kind: the length of the kind's path it extends, or 0. */
function closeness(write: EndpointDef, found: Found): number {
  const path = pattern(write.path);
  if (path === found.listPattern || path === found.readPattern || path.startsWith(`${found.readPattern}/`))
    return found.readPattern.length;
  return 0;
}

/** Each write goes to the kind whose path it extends most closely (…/records/:r/void is a record's). */
function writesOf(found: Found, all: readonly Found[], registry: readonly EndpointDef[]): EndpointDef[] {
  return registry.filter((write) => {
    if (write.method === 'GET') return false;
    const own = closeness(write, found);
    return own > 0 && all.every((other) => closeness(write, other) <= own);
  });
}

/**
 * The kind's own machine: of its writes that move an entity, the one whose path adds the fewest
 * segments to the kind's path (POST /projects/:id/lifecycle moves a project; POST
 * /projects/:id/capture/presign, also under the project, moves a capture session). Registry order
 * does not decide it.
 */
function ownMachineOf(writes: readonly EndpointDef[]): EndpointDef['machine'] | null {
  const depth = (write: EndpointDef) => pattern(write.path).split('/').length;
  const moving = writes.filter((write) => write.machine).sort((a, b) => depth(a) - depth(b));
  return moving[0]?.machine ?? null;
}

function describeKind(found: Found, all: readonly Found[], registry: readonly EndpointDef[]) {
  const { read, member } = found;
  const list = registry.find((e) => e.method === 'GET' && e.list && pattern(e.path) === found.listPattern);
  const writes = writesOf(found, all, registry);
  const machine = ownMachineOf(writes);
  return {
    kind: member.kind,
    member: member.name,
    scopeKind: read.scope?.kind ?? '',
    projectScoped: Boolean(read.projectParam),
    endpoints: { read: route(read), list: list ? route(list) : null, writes: writes.map(route) },
    fields: fieldsOfAll(member.schemas),
    stateMachine: machine ? { field: machine.field, moves: machine.moves } : null,
  };
}

/** Links: a field `customerId` (or `customerIds`) points to the kind `customer` when that kind exists. */
function withLinks(kinds: Omit<ResourceKind, 'links'>[]): ResourceKind[] {
  const names = new Set(kinds.map((kind) => kind.kind));
  return kinds.map((kind) => ({
    ...kind,
    links: kind.fields.flatMap((field) => {
      const target = /^(\w+)Ids?$/.exec(field.name)?.[1];
      return target && names.has(target) ? [{ field: field.name, kind: target }] : [];
    }),
  }));
}

export function buildResourceCatalogue(registry: readonly EndpointDef[]): ResourceKind[] {
  const found: Found[] = [];
  for (const read of registry.filter(isSingleRead)) {
    const member = resourceMember(read);
    if (!member || found.some((f) => f.member.kind === member.kind)) continue;
    const readPattern = pattern(read.path);
    found.push({
      read,
      member,
      readPattern,
      listPattern: readPattern.slice(0, readPattern.lastIndexOf('/')),
    });
  }
  return withLinks(found.map((f) => describeKind(f, found, registry)));
}
