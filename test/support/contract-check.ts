// Holds every answer of the end-to-end suites against the OpenAPI document the platform serves
// (gateway/openapi/openapi.json, the committed copy): the status must be declared for the
// operation, the headers it declares required must be there, and the body must match the
// schema of that status. A mismatch throws, so drift between the platform and its contract fails
// the test that met it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { paths } from './api.gen.ts';

type Schema = Record<string, unknown>;
interface Response {
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, { schema: Schema }>;
}
interface Operation {
  operationId: string;
  responses: Record<string, Response>;
}

const DOC_PATH = resolve(import.meta.dirname, '..', '..', 'gateway', 'openapi', 'openapi.json');
const doc = JSON.parse(readFileSync(DOC_PATH, 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

/** Path templates as matchers, literal segments before parameters (`/x/new` before `/x/{id}`). */
const routes = Object.entries(doc.paths)
  .map(([template, operations]) => ({
    template,
    operations,
    params: (template.match(/\{/g) ?? []).length,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }))
  .sort((a, b) => a.params - b.params);

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false, inlineRefs: false });
// The named schemas are added once, and every response schema refers to them there: ajv then
// compiles each named schema once a file, where compiling them into each validator cost a
// quarter of a second of every HTTP suite.
const COMPONENTS_ID = 'fieldops-openapi-components';
ajv.addSchema({ $id: COMPONENTS_ID, components: doc.components });
const compiled = new Map<string, ValidateFunction>();

function validatorOf(key: string, schema: Schema): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) {
    const local = JSON.stringify(schema).replaceAll('"#/components/', `"${COMPONENTS_ID}#/components/`);
    validate = ajv.compile(JSON.parse(local) as Schema);
    compiled.set(key, validate);
  }
  return validate;
}

/** Every path of the API: `/leads` or `/leads/${string}`, with or without a query. */
type Fill<P extends string> = P extends `${infer A}{${string}}${infer B}` ? `${A}${string}${Fill<B>}` : P;
type Relative<P> = P extends `/api/v1${infer R}` ? Fill<R> : never;
export type ApiPath = Relative<keyof paths>;
export type ApiRequestPath = ApiPath | `${ApiPath}${string}`;

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Throws when the answer to `method path` (a full /api/v1 path) is not what the document declares. */
export function checkAgainstContract(method: string, path: string, answer: Answer): void {
  const pathname = decodeURI(path.split('?')[0] ?? '');
  const route = routes.find((candidate) => candidate.pattern.test(pathname));
  const operation = route?.operations[method.toLowerCase()];
  if (!route || !operation) return; // not an operation: the edge's 404 for unknown paths
  const where = `${method} ${path} (${operation.operationId}) answered ${answer.status}`;
  const response = operation.responses[String(answer.status)];
  if (!response) throw new Error(`${where}, a status the OpenAPI document does not declare.`);
  const missing = Object.entries(response.headers ?? {})
    .filter(([name, spec]) => spec.required && !answer.headers.has(name))
    .map(([name]) => name);
  if (missing.length) throw new Error(`${where} without the required header(s) ${missing.join(', ')}.`);
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return;
  const validate = validatorOf(`${route.template} ${method} ${answer.status}`, schema);
  if (!validate(answer.body)) {
    const problems = (validate.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    );
    throw new Error(
      `${where} with a body the document does not describe: ${problems.join('; ')}\n${JSON.stringify(answer.body).slice(0, 2000)}`,
    );
  }
}
