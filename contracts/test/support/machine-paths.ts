// Why: the suites that walk a declared state machine (deals, proposals, invoices; through the
// handlers and through HTTP) all need the shortest trigger path to a status. It is read from the
// table the machine declares, here once, so every suite walks the same path the table allows.

/** A status machine as contracts declares it, as far as walking it needs. */
export interface DeclaredMachine<S extends string, T extends string> {
  initial: S;
  triggers: Readonly<Record<T, { readonly to: S }>>;
}

/** The shortest trigger path from the machine's initial status to `status`, read from the table. */
export function pathTo<S extends string, T extends string>(
  machine: DeclaredMachine<S, T>,
  legalTriggers: (status: S) => readonly T[],
  status: S,
): T[] {
  const paths = new Map<S, T[]>([[machine.initial, []]]);
  const queue: S[] = [machine.initial];
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    for (const trigger of legalTriggers(at)) {
      const to = machine.triggers[trigger].to;
      if (paths.has(to)) continue;
      paths.set(to, [...(paths.get(at) ?? []), trigger]);
      queue.push(to);
    }
  }
  const path = paths.get(status);
  if (!path) throw new Error(`${status} is unreachable in the declared machine`);
  return path;
}
