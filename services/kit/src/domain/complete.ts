// Why: a stored record is not its message (money stored flat, internal fields), so each service
// maps its documents to the proto message in a view function. ts-proto makes a plain scalar field
// required but a message or `optional` field optional, so a view that forgot an optional field
// still typechecked: the field just never reached a client. A view that `satisfies Complete<M>`
// names every member of M, optional ones included (as undefined where the record has none), so a
// field added to the proto message and not mapped fails `npm run typecheck`.

/** Every member of T, each present (an optional one's value may be undefined). */
export type Complete<T> = { [K in keyof Required<T>]: T[K] };
