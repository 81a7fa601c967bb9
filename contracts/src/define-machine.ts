// Every state machine of the platform is declared once, as data, through defineMachine: its
// states, where it starts, and either its triggers (each with the statuses it fires from and the
// one it leads to) or, for machines PATCH moves directly, its moves. Everything the services, the
// OpenAPI document, /capabilities and docs/state-machines.md read is derived here, so no machine
// file writes its own isX, canFireX, xLegalTriggers or X_MOVES, and no plan writes a status by hand.
// - canFire: the trigger has an edge out of the status (whoever fires it).
// - legalTriggers: the triggers with an edge out of the status that the API can fire, in
//   declaration order (a machine's notByApi triggers are left out: only its own worker fires them).
// - moves: status → statuses legalTriggers reach, the table x-state-machine and /capabilities publish.
// - timed: an edge that is open only for a while after its source status was entered (a finalize
//   racing an abort); not published as a move, since a caller can never plan on it.

/** One trigger's edge: the statuses it fires from, and the one it leads to. */
export interface Edge<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
}

/** A trigger that may also fire from `from` for `withinMs` after the status was entered. */
export interface TimedEdge<S extends string> {
  readonly from: readonly S[];
  readonly withinMs: number;
}

/** A machine as defineMachine derives it: the declared data and what is read from it. */
export interface Machine<S extends string, T extends string> {
  /** Every status, in declaration order (the order enums and tables list them in). */
  readonly states: readonly [S, ...S[]];
  readonly initial: S;
  readonly triggers: Readonly<Record<T, Edge<S>>>;
  /** Every trigger, in declaration order. */
  readonly triggerNames: readonly T[];
  /** Triggers no endpoint fires (a worker's, or a person's in the portal). */
  readonly notByApi: readonly T[];
  /** Every trigger but the notByApi ones, in declaration order. */
  readonly apiTriggers: readonly T[];
  readonly timed: Readonly<Partial<Record<T, TimedEdge<S>>>>;
  /** status → statuses the API can move it to (the x-state-machine `moves`). */
  readonly moves: Readonly<Record<S, readonly S[]>>;
  is(value: string): value is S;
  isTrigger(value: string): value is T;
  /** Whether `trigger` has an edge out of `status`. */
  canFire(status: string, trigger: T): boolean;
  /** canFire, or a timed edge out of `status` entered `msInStatus` ago is still open. */
  canFireWithin(status: string, trigger: T, msInStatus: number | undefined): boolean;
  /** The triggers the API can fire from `status`, in declaration order. */
  legalTriggers(status: string): T[];
  /** The status `trigger` leads to, wherever it fires from. */
  destination(trigger: T): S;
  /** The statuses the API can move `status` to (none for an unknown status). */
  next(status: string): S[];
  /** Whether the machine has any edge from `from` to `to`, notByApi ones included. */
  canMove(from: string, to: string): boolean;
  /** Whether `status` is final: a known status no edge leaves, notByApi ones included. */
  isFinal(status: string): boolean;
}

/** The facts of a machine that are lists (of its statuses or its triggers). */
type ListFacts<X> = { [K in keyof X]: X[K] extends readonly string[] ? K : never }[keyof X];

/** Whether `value` is in the machine's fact list `fact` (isIn('amendable', status)). */
export interface FactLists<X> {
  isIn(fact: ListFacts<X>, value: string): boolean;
}

export type StateOf<M> = M extends Machine<infer S, string> ? S : never;
export type TriggerOf<M> = M extends Machine<string, infer T> ? T : never;

/**
 * A machine's own facts beyond its edges (statuses that are amendable, triggers the customer
 * fires, ...): each a list of its statuses, a list of its triggers, one status, or a map from
 * status to a word.
 */
type Facts<S extends string, T extends string, X> = {
  readonly [K in keyof X]: readonly S[] | readonly T[] | S | { readonly [P in S]?: string };
};

interface TriggerDeclaration<S extends string, T extends string> {
  readonly states: readonly [S, ...S[]];
  readonly initial: NoInfer<S>;
  readonly triggers: { readonly [K in T]: Edge<NoInfer<S>> };
  readonly notByApi?: readonly NoInfer<T>[];
  readonly timed?: { readonly [K in NoInfer<T>]?: TimedEdge<NoInfer<S>> };
}

interface MovesDeclaration<S extends string> {
  readonly initial: NoInfer<S>;
  /** status → statuses PATCH may move it to; the keys are the statuses, in order. */
  readonly moves: { readonly [K in S]: readonly NoInfer<S>[] };
}

const member =
  <V extends string>(values: readonly V[]) =>
  (value: string): value is V =>
    (values as readonly string[]).includes(value);

/** Derives a machine from its triggers, or (no triggers) from its declared moves. */
export function defineMachine<
  const S extends string,
  const T extends string,
  const X extends object = object,
>(
  declaration: TriggerDeclaration<S, T>,
  facts?: X & Facts<NoInfer<S>, NoInfer<T>, X>,
): Machine<S, T> & X & FactLists<X>;
export function defineMachine<const S extends string, const X extends object = object>(
  declaration: MovesDeclaration<S>,
  facts?: X & Facts<NoInfer<S>, never, X>,
): Machine<S, never> & X & FactLists<X>;
export function defineMachine(
  declaration: TriggerDeclaration<string, string> | MovesDeclaration<string>,
  facts: object = {},
): Machine<string, string> & FactLists<object> {
  const isIn = (fact: string, value: string) => {
    const list: unknown = (facts as Record<string, unknown>)[fact];
    return Array.isArray(list) && list.includes(value);
  };
  const machine =
    'moves' in declaration
      ? fromMoves(declaration, facts)
      : fromTriggers(declaration as TriggerDeclaration<string, string>, facts);
  return { ...machine, isIn };
}

function fromTriggers(
  declaration: TriggerDeclaration<string, string>,
  facts: object,
): Machine<string, string> {
  const { states, initial, triggers } = declaration;
  const notByApi = declaration.notByApi ?? [];
  const timed: Partial<Record<string, TimedEdge<string>>> = declaration.timed ?? {};
  const triggerNames = Object.keys(triggers);
  const canFire = (status: string, trigger: string) =>
    Object.hasOwn(triggers, trigger) && triggers[trigger]!.from.includes(status);
  const apiTriggers = triggerNames.filter((trigger) => !notByApi.includes(trigger));
  const legalTriggers = (status: string) => apiTriggers.filter((trigger) => canFire(status, trigger));
  const next = (status: string) => legalTriggers(status).map((trigger) => triggers[trigger]!.to);
  const timedOpen = (status: string, trigger: string, msInStatus: number | undefined) => {
    const edge = timed[trigger];
    return (
      edge !== undefined &&
      edge.from.includes(status) &&
      msInStatus !== undefined &&
      msInStatus <= edge.withinMs
    );
  };
  return {
    ...facts,
    states,
    initial,
    triggers,
    triggerNames,
    notByApi,
    apiTriggers,
    timed,
    moves: Object.fromEntries(states.map((status) => [status, next(status)])),
    is: member(states),
    isTrigger: member(triggerNames),
    canFire,
    canFireWithin: (status, trigger, msInStatus) =>
      canFire(status, trigger) || timedOpen(status, trigger, msInStatus),
    legalTriggers,
    destination: (trigger) => triggers[trigger]!.to,
    next,
    canMove: (from, to) =>
      triggerNames.some((trigger) => triggers[trigger]!.to === to && canFire(from, trigger)),
    isFinal: (status) => states.includes(status) && !triggerNames.some((trigger) => canFire(status, trigger)),
  };
}

function fromMoves(declaration: MovesDeclaration<string>, facts: object): Machine<string, never> {
  const { initial, moves } = declaration;
  const states = Object.keys(moves) as [string, ...string[]];
  const next = (status: string) => (Object.hasOwn(moves, status) ? [...moves[status]!] : []);
  return {
    ...facts,
    states,
    initial,
    triggers: {},
    triggerNames: [],
    notByApi: [],
    apiTriggers: [],
    timed: {},
    moves,
    is: member(states),
    isTrigger: (_value: string): _value is never => false,
    canFire: () => false,
    canFireWithin: () => false,
    legalTriggers: () => [],
    destination: (trigger: never) => trigger,
    next,
    canMove: (from, to) => next(from).includes(to),
    isFinal: (status) => states.includes(status) && next(status).length === 0,
  };
}
