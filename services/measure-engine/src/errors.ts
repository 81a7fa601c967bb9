// One error type for the engine. Every refusal names what is wrong in a sentence a person can act
// on; the service maps the engine's code to the spec's error code with `toAppError`, exhaustively,
// so a new engine code that nobody maps is a compile error.
import { AppError, type ErrorCode } from '@fieldops/kit';

export type EngineErrorCode =
  /** The bytes are not a PLY, LAS or LAZ file the engine reads (unknown magic, version, encoding, a waveform LAZ). */
  | 'unsupported_format'
  /** The header or a record contradicts the format specification. */
  | 'malformed'
  /** The file ends before the points it declares. */
  | 'truncated'
  /** Above a stated limit (points, grid cells, polygon vertices, header size). */
  | 'too_large'
  /** A region polygon that is not a simple polygon with a positive area, or a bad density. */
  | 'invalid_region'
  /** The inputs are each valid but do not fit together (a region outside the capture). */
  | 'region_not_covered'
  /** Too few points to build a surface. */
  | 'insufficient_points'
  /** Two takeoffs or quantities that cannot be compared (a unit changed under the same key). */
  | 'incomparable'
  /** The caller's AbortSignal fired. */
  | 'aborted';

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly subject?: string;
  constructor(
    code: EngineErrorCode,
    message: string,
    /** The input the error is about (a file name, a region id), for the service's field name. */
    subject?: string,
  ) {
    super(message);
    this.code = code;
    this.subject = subject;
    this.name = 'EngineError';
  }
}

export const isEngineError = (error: unknown): error is EngineError => error instanceof EngineError;

/**
 * The spec's code for an engine refusal. A file that is not what it claims is invalid input
 * (field_invalid, not retryable); inputs that are valid but do not fit together are a conflict
 * with the state of the data (409).
 */
export function specCodeOf(code: EngineErrorCode): ErrorCode {
  switch (code) {
    case 'unsupported_format':
    case 'malformed':
    case 'truncated':
    case 'too_large':
    case 'invalid_region':
      return 'field_invalid';
    case 'region_not_covered':
    case 'insufficient_points':
    case 'incomparable':
      return 'conflict';
    case 'aborted':
      return 'unavailable';
    default: {
      const unmapped: never = code;
      throw new Error(`engine error code ${String(unmapped)} has no spec code`);
    }
  }
}

export function toAppError(error: EngineError): AppError {
  return new AppError(specCodeOf(error.code), error.message, { engineCode: error.code }, { cause: error });
}
