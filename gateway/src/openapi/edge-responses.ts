// Responses the HTTP edge may give to any operation before the endpoint's own pipeline runs
// (protocol-level: body too large, unsupported media type, malformed percent-encoding, …). The
// document generator adds them to every operation; the edge owns this list.
import type { ErrorCode } from '@fieldops/kit/errors';

/** Error codes every operation may answer at the edge, whatever its declaration. */
export const EDGE_ERROR_CODES: readonly ErrorCode[] = ['internal'];
