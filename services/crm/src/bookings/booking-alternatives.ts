// Free windows to offer when the one asked for clashes: the same length, on the same resource,
// as near the wanted start as possible (before or after it), never in the past. Pure: the caller
// reads the busy windows.
import type { Window } from './booking-window.ts';
import { overlaps } from './booking-window.ts';

/** How many alternatives a refusal offers. */
export const ALTERNATIVES_OFFERED = 3;
/** Alternatives start on a quarter hour when they are not next to another booking. */
const STEP_MS = 15 * 60_000;

/**
 * Candidate starts are the wanted start, the first quarter hour after `earliestMs`, and the two
 * starts that sit flush against each busy window (just before it, just after it); the free ones
 * nearest the wanted start win. Every candidate ends by `untilMs`, the edge of what `busy` covers.
 */
export function alternativeSlots(
  busy: readonly Window[],
  wanted: Window,
  bounds: { earliestMs: number; untilMs: number },
  count = ALTERNATIVES_OFFERED,
): Window[] {
  const length = wanted.endMs - wanted.startMs;
  const starts = new Set<number>([wanted.startMs, Math.ceil(bounds.earliestMs / STEP_MS) * STEP_MS]);
  for (const window of busy) {
    starts.add(window.endMs);
    starts.add(window.startMs - length);
  }
  const distance = (start: number) => Math.abs(start - wanted.startMs);
  return [...starts]
    .filter((start) => start >= bounds.earliestMs && start + length <= bounds.untilMs)
    .sort((a, b) => distance(a) - distance(b) || a - b)
    .map((startMs) => ({ startMs, endMs: startMs + length }))
    .filter((slot) => !busy.some((window) => overlaps(window, slot)))
    .slice(0, count);
}
