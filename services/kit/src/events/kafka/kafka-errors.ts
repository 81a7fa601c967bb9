// How the Kafka client's failures are told apart. @platformatic/kafka wraps the broker's answers
// (ProtocolError, with the protocol's name in `apiId`) and socket failures (NetworkError) in
// MultipleErrors/ResponseError aggregates, so every test walks `errors` and `cause`.

/** Every error inside `error`: itself, its causes and the members of aggregates, bounded. */
function* nested(error: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (depth > 8 || typeof error !== 'object' || error === null) return;
  yield error as Record<string, unknown>;
  const { errors, cause } = error as { errors?: unknown; cause?: unknown };
  if (Array.isArray(errors)) for (const member of errors) yield* nested(member, depth + 1);
  yield* nested(cause, depth + 1);
}

/** Whether the broker answered one of `ids` (protocol error names such as MESSAGE_TOO_LARGE). */
export function hasKafkaError(error: unknown, ids: string[]): boolean {
  for (const entry of nested(error)) {
    if (typeof entry.apiId === 'string' && ids.includes(entry.apiId)) return true;
  }
  return false;
}

/**
 * The request failed for want of a broker (not for the record): a socket that failed or timed
 * out, or a connection that could not be made. The client gives such errors code PLT_KFK_NETWORK.
 */
export function isConnectionFailure(error: unknown): boolean {
  for (const entry of nested(error)) {
    if (entry.code === 'PLT_KFK_NETWORK' || entry.code === 'PLT_KFK_TIMEOUT') return true;
  }
  return false;
}

/** The member must rejoin its group before it commits anything (a rebalance is under way). */
export function needsRejoin(error: unknown): boolean {
  for (const entry of nested(error)) if (entry.needsRejoin === true) return true;
  return false;
}
