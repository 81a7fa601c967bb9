// The named schemas of the protocol every operation shares: the error envelope (one schema per
// family of codes), the dry-run answer, the confirmation demand's
// `willDo`, the effects of a write and the legal moves of a state machine. The document keeps
// them in components.schemas; operations refer to them with $ref.
import { ERROR_CATALOGUE, type ErrorCode } from '@fieldops/kit';
import { EDGE_ERROR_FIELDS } from '../http/edge-responses.ts';
import { componentRef, type JsonSchema } from '../endpoint/json-schema.ts';

/** The family (and schema name) of each code; a Record, so a new code cannot be left out. */
export const ERROR_FAMILY: Record<ErrorCode, string> = {
  no_credential: 'AuthError',
  invalid_token: 'AuthError',
  revoked: 'AuthError',
  expired: 'AuthError',
  no_session: 'AuthError',
  read_only: 'ScopeError',
  out_of_scope: 'ScopeError',
  role_denied: 'ScopeError',
  invalid_json: 'ValidationError',
  invalid_body: 'ValidationError',
  field_required: 'ValidationError',
  field_invalid: 'ValidationError',
  field_invalid_enum: 'ValidationError',
  field_too_long: 'ValidationError',
  unknown_field: 'ValidationError',
  payload_too_large: 'ValidationError',
  unsupported_media_type: 'ValidationError',
  not_found: 'NotFoundError',
  principal_unbound: 'ConflictError',
  conflict: 'ConflictError',
  confirmation_required: 'ConfirmationRequired',
  precondition_required: 'PreconditionRequired',
  rate_limited: 'RateLimited',
  unavailable: 'ServerError',
  outcome_unknown: 'ServerError',
  internal: 'ServerError',
};

const string = (description?: string): JsonSchema => ({
  type: 'string',
  ...(description ? { description } : {}),
});
const strings = (description: string): JsonSchema => ({
  type: 'array',
  description,
  items: { type: 'string' },
});

const scope: JsonSchema = {
  type: 'object',
  required: ['action', 'kind'],
  properties: { action: string(), kind: string() },
};

/** A move a state machine allows from here, and the operation that makes it. */
const LEGAL_MOVE: JsonSchema = {
  type: 'object',
  description:
    'A move the state machine allows from the current state, with the operation that makes it: call `method path` (the record id in place of {id}) with `body`.',
  required: ['trigger', 'operationId', 'method', 'path'],
  properties: {
    trigger: string('The trigger (or the state moved to, for machines moved by a field).'),
    to: string('The state the move leads to.'),
    operationId: string('The operation that makes the move.'),
    method: { type: 'string', enum: ['POST', 'PATCH'] },
    path: string('The operation path, e.g. /api/v1/deals/{id}/lose.'),
    body: {
      type: 'object',
      description:
        'The body fields that select this move (further fields the operation requires are its own).',
      additionalProperties: { type: 'string' },
    },
  },
};

/** The fields of a family beyond {ok, code, error, retryable}. */
const FAMILY_FIELDS: Record<string, Record<string, JsonSchema>> = {
  AuthError: {},
  ScopeError: {
    required: { ...scope, description: 'The missing scope.' },
    missing: {
      type: 'array',
      description:
        'On the denial of a read that gathers several kinds (x-gathers): every scope the token lacks; `required` is the first.',
      items: scope,
    },
    projectIds: strings(
      'On the denial of a whole-tenant read (x-gathers byProject refuse) to a project-restricted token: the projects it is restricted to.',
    ),
  },
  ValidationError: {
    field: string('The field (or header, or query parameter) to fix.'),
    fields: strings(
      'Every field concerned: the unknown ones, the missing ones, or the ones of which to send one.',
    ),
    allowed: {
      type: 'array',
      description: 'On field_invalid_enum: the values accepted.',
      items: { type: ['string', 'number', 'boolean', 'null'] },
    },
    maxLength: { type: 'integer', description: 'On field_too_long: the limit in characters.' },
    max: { type: 'integer', description: 'On field_too_long: the limit in characters.' },
    feasible: {
      type: 'array',
      description: 'On a capture no engine choice can process: the engines and modes that would work.',
      items: {
        type: 'object',
        required: ['engine', 'modes'],
        properties: { engine: string(), modes: { type: 'array', items: { type: 'string' } } },
      },
    },
    ...EDGE_ERROR_FIELDS,
  },
  NotFoundError: {
    field: string('The field that named what does not exist.'),
    reason: string('Why, when it is more than absence (e.g. expired).'),
  },
  ConflictError: {
    status: string('The status (or stage) of the record now.'),
    stage: string('The stage of the record now.'),
    legalTriggers: strings('Every trigger the state machine allows from here (see legalMoves for how).'),
    legalTransitions: strings('Every state a field-moved machine allows from here (see legalMoves for how).'),
    legalMoves: {
      type: 'array',
      description: 'Each legal move with the operation that makes it.',
      items: componentRef('LegalMove'),
    },
    field: string('The field the conflict is about.'),
    paidCents: { type: 'integer', description: 'On an invoice that cannot be voided: what was paid.' },
    convertibleFrom: strings('On a lead that cannot be converted: the statuses it can be converted from.'),
    convertedTo: {
      type: 'object',
      description: 'On a lead converted before: the customer and deal it became.',
      required: ['customerId', 'dealId', 'convertedAt'],
      properties: { customerId: string(), dealId: string(), convertedAt: string() },
    },
    details: {
      type: 'object',
      description: 'Why the state cannot be computed or placed: branch on reason.',
      required: ['reason'],
      properties: {
        reason: string('e.g. dependency_cycle, unknown_dependency, duplicate_task, beyond_horizon.'),
        cycle: strings('The tasks of a dependency cycle, the first repeated at the end.'),
        taskId: string(),
        dependsOn: string(),
        limit: string(),
        countryCode: string(),
        rulesetVersion: string(),
      },
    },
  },
  ConfirmationRequired: {
    confirmToken: string('Send it as the header named confirmHeader on the identical request.'),
    confirmHeader: { type: 'string', const: 'x-service-confirm' },
    expiresAt: string('When the token expires (ISO 8601).'),
    willDo: componentRef('WillDo'),
  },
  PreconditionRequired: { header: { type: 'string', const: 'If-Match', description: 'The header to send.' } },
  RateLimited: {
    bucket: { type: 'string', enum: ['reads', 'writes'], description: 'The rate bucket spent.' },
    budget: string('The consequence budget spent (emails, sms, charges, publishes, compute).'),
    limit: { type: 'integer', description: 'The budget per hour.' },
    budgetScope: {
      type: 'string',
      enum: ['token', 'tenant'],
      description:
        "Whose budget ran out: this token's, or the operator's ceiling across all of the tenant's tokens.",
    },
    used: { type: 'integer', description: 'How much of the budget was used.' },
    retryAfterSeconds: { type: 'integer', description: 'Seconds until a retry can succeed.' },
  },
  ServerError: {
    outcomeUnknown: {
      type: 'boolean',
      const: true,
      description:
        'Present on `unavailable` for a write whose outcome is unknown (the service did not confirm it before its deadline, or its store lost the commit answer): it may have been applied. Retry with the same Idempotency-Key (or opId) only; a retry without one may apply it twice.',
    },
  },
};

const codesOf = (family: string): ErrorCode[] =>
  (Object.keys(ERROR_FAMILY) as ErrorCode[]).filter((code) => ERROR_FAMILY[code] === family);

function familySchema(family: string): JsonSchema {
  const codes = codesOf(family);
  return {
    type: 'object',
    description: `The error envelope of ${codes.join(', ')}.`,
    required: [
      'ok',
      'code',
      'error',
      'retryable',
      ...(family === 'ConfirmationRequired' ? ['confirmToken', 'confirmHeader', 'expiresAt', 'willDo'] : []),
    ],
    properties: {
      ok: { const: false },
      code: { type: 'string', enum: codes },
      error: string('A sentence for a person; branch on code, never on this.'),
      retryable: {
        type: 'boolean',
        enum: [...new Set(codes.map((code) => ERROR_CATALOGUE[code].retryable))],
      },
      ...FAMILY_FIELDS[family],
    },
  };
}

const FIELD_CHANGE: JsonSchema = {
  type: 'object',
  required: ['field'],
  properties: { field: string(), from: string(), to: string() },
};

const EFFECT: JsonSchema = {
  type: 'object',
  description: 'One create, update, delete or event a write makes (or would make).',
  required: ['action', 'kind', 'id', 'changes'],
  properties: {
    action: { type: 'string', description: 'create, update, delete or event.' },
    kind: string('The kind of record (or the event topic).'),
    id: string('The record id ("" for a record not yet created).'),
    changes: { type: 'array', items: componentRef('FieldChange') },
  },
};

const REACH = {
  recipient: string('Who the operation reaches, masked.'),
  totalCents: { type: 'integer', description: 'The money at stake, in cents.' },
};

const WILL_DO: JsonSchema = {
  type: 'object',
  description: 'What a confirmed operation will do: its rehearsal.',
  required: ['summary', 'effect', 'effects'],
  properties: {
    summary: string('One sentence: what the write will do.'),
    effect: { type: 'string', enum: ['irreversible', 'binding'] },
    effects: { type: 'array', items: componentRef('Effect') },
    ...REACH,
  },
};

const DRY_RUN: JsonSchema = {
  type: 'object',
  description: 'A dry run (x-service-dry-run: 1): what the write would do; nothing was applied.',
  required: ['ok', 'dryRun', 'applied', 'willDo', 'effects'],
  properties: {
    ok: { const: true },
    dryRun: { const: true },
    applied: { const: false },
    willDo: string('One sentence: what the write would do.'),
    replayed: {
      type: 'boolean',
      description:
        'true when the key names a completed write: performing it answers that result again, with no confirmation and no budget spent.',
    },
    effects: {
      type: 'array',
      description: 'Every create, update and event the write would make, with its field changes.',
      items: componentRef('Effect'),
    },
    details: {
      type: 'object',
      description: 'Who the operation reaches (masked) and the money at stake.',
      properties: REACH,
    },
  },
};

export const ERROR_FAMILIES = [...new Set(Object.values(ERROR_FAMILY))];

/** The protocol's named schemas, for components.schemas. */
export function protocolSchemas(): Record<string, JsonSchema> {
  return {
    ...Object.fromEntries(ERROR_FAMILIES.map((family) => [family, familySchema(family)])),
    LegalMove: LEGAL_MOVE,
    FieldChange: FIELD_CHANGE,
    Effect: EFFECT,
    WillDo: WILL_DO,
    DryRun: DRY_RUN,
  };
}

/**
 * The schema of an error answer carrying `codes`: the family schema(s), narrowed to these codes,
 * and `extra` members (the typed `current` of a stale If-Match) for the families they apply to.
 */
export function errorAnswerSchema(
  codes: readonly ErrorCode[],
  extra: Partial<Record<string, Record<string, JsonSchema>>> = {},
): JsonSchema {
  const families = [...new Set(codes.map((code) => ERROR_FAMILY[code]))];
  const members = families.map((family) => {
    const here = codes.filter((code) => ERROR_FAMILY[code] === family);
    const narrowed = here.length < codesOf(family).length;
    const more = extra[family];
    if (!narrowed && !more) return componentRef(family);
    return {
      allOf: [
        componentRef(family),
        {
          type: 'object',
          properties: { ...(narrowed ? { code: { enum: here } } : {}), ...(more ?? {}) },
        },
      ],
    };
  });
  return members.length === 1 ? (members[0] as JsonSchema) : { anyOf: members };
}
