// Reads the request headers the spec gives meaning to (Conventions 4, 5, 7; Authentication 5),
// refusing over-long values with a sentence naming the header.
import { AppError } from '@fieldops/kit';
import type { Request } from 'express';
import { AGENT_HEADER_MAX, IDEMPOTENCY_KEY_MAX } from '../limits.ts';

export const DRY_RUN_HEADER = 'x-service-dry-run';
export const CONFIRM_HEADER = 'x-service-confirm';

export interface WriteHeaders {
  idempotencyKey: string;
  agent: { runId: string; task: string; model: string; confirmedBy: string };
  dryRun: boolean;
  ifMatch: string | undefined;
  confirmToken: string | undefined;
}

const LIMITS: Record<string, number> = {
  'idempotency-key': IDEMPOTENCY_KEY_MAX,
  'x-agent-run-id': AGENT_HEADER_MAX,
  'x-agent-task': AGENT_HEADER_MAX,
  'x-agent-model': 200,
  'x-agent-confirmed-by': 200,
};

function header(req: Request, name: string): string {
  const value = req.headers[name];
  const text = (Array.isArray(value) ? value.join(', ') : (value ?? '')).trim();
  const max = LIMITS[name];
  if (max !== undefined && text.length > max) {
    throw new AppError('field_too_long', `The ${name} header must be at most ${max} characters.`, {
      field: name,
      maxLength: max,
    });
  }
  return text;
}

export function readWriteHeaders(req: Request): WriteHeaders {
  const dryRun = header(req, DRY_RUN_HEADER);
  if (dryRun !== '' && dryRun !== '1') {
    throw new AppError('field_invalid', `The ${DRY_RUN_HEADER} header takes the value 1 (or is left out).`, {
      field: DRY_RUN_HEADER,
    });
  }
  return {
    idempotencyKey: header(req, 'idempotency-key'),
    agent: {
      runId: header(req, 'x-agent-run-id'),
      task: header(req, 'x-agent-task'),
      model: header(req, 'x-agent-model'),
      confirmedBy: header(req, 'x-agent-confirmed-by'),
    },
    dryRun: dryRun === '1',
    ifMatch: req.headers['if-match'] === undefined ? undefined : header(req, 'if-match'),
    confirmToken: header(req, CONFIRM_HEADER) || undefined,
  };
}

/** The body's opId and the Idempotency-Key header are one key; sending two different ones is an error. */
export function idempotencyKeyOf(headerKey: string, opId: string): string {
  if (opId && headerKey && opId !== headerKey) {
    throw new AppError(
      'field_invalid',
      'opId and the Idempotency-Key header name two different keys; send one, or the same value in both.',
      { field: 'opId' },
    );
  }
  return opId || headerKey;
}
