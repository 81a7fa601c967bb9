// The critical paths: chains of zero-float tasks, each joined to the next by a driving link (one
// with no slack at early dates), from a task nothing critical drives to one that drives nothing
// critical. Parallel critical chains are each reported; their number can grow exponentially
// with the network, so the list is capped and says when it was.
import { linkSlack, type CpmTimes, type Link } from './critical-path.ts';

/** More chains than this are not listed (the tasks on them all are, in `criticalTaskOrder`). */
export const MAX_CRITICAL_PATHS = 20;

export interface CriticalChains {
  /** Each chain as task indices, in dependency order. */
  chains: number[][];
  truncated: boolean;
}

export const isCritical = (times: CpmTimes): boolean => times.totalFloat === 0;

export function criticalChains(
  times: readonly CpmTimes[],
  links: readonly Link[],
  order: readonly number[],
): CriticalChains {
  const driving = links.filter(
    (link) =>
      isCritical(times[link.from] as CpmTimes) &&
      isCritical(times[link.to] as CpmTimes) &&
      linkSlack(times, link) === 0,
  );
  const next: number[][] = times.map(() => []);
  const driven = new Set<number>();
  for (const link of driving) {
    // Two links between the same pair (SS and FF, say) are one step of a chain.
    if (!next[link.from]?.includes(link.to)) next[link.from]?.push(link.to);
    driven.add(link.to);
  }
  const rank = new Map(order.map((index, position) => [index, position]));
  for (const successors of next) successors.sort((a, b) => (rank.get(a) as number) - (rank.get(b) as number));

  const heads = order.filter((index) => isCritical(times[index] as CpmTimes) && !driven.has(index));
  const chains: number[][] = [];
  let truncated = false;
  // Depth first from each head; every branch ends at a task that drives nothing critical, so no
  // walk is wasted and the cap bounds the work.
  const extend = (path: number[]): void => {
    if (truncated) return;
    const successors = next[path[path.length - 1] as number] ?? [];
    if (successors.length > 0) {
      for (const successor of successors) extend([...path, successor]);
    } else if (chains.length < MAX_CRITICAL_PATHS) {
      chains.push(path);
    } else {
      truncated = true;
    }
  };
  for (const head of heads) extend([head]);
  return { chains, truncated };
}

/** Every critical task once, in the order they happen (early start, then dependency order). */
export function criticalTaskOrder(times: readonly CpmTimes[], order: readonly number[]): number[] {
  return order
    .filter((index) => isCritical(times[index] as CpmTimes))
    .map((index, position) => ({ index, position, start: (times[index] as CpmTimes).earlyStart }))
    .sort((a, b) => a.start - b.start || a.position - b.position)
    .map(({ index }) => index);
}
