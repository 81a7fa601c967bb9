// The free windows a clash offers: same length, never overlapping a busy window, never before the
// earliest allowed start, nearest the wanted start first.
import { alternativeSlots } from '../src/bookings/booking-alternatives.ts';
import { overlaps } from '../src/bookings/booking-window.ts';

const H = 3_600_000;
const w = (start: number, end: number) => ({ startMs: start * H, endMs: end * H });

describe('alternativeSlots', () => {
  const bounds = { earliestMs: 0, untilMs: 100 * H };

  it('offers the windows flush before and after the one in the way, nearest first', () => {
    expect(alternativeSlots([w(10, 12)], w(11, 13), bounds)).toEqual([w(12, 14), w(8, 10), w(0, 2)]);
  });

  it('skips candidates that land on another busy window', () => {
    const busy = [w(10, 12), w(12, 14), w(6, 9)];
    const slots = alternativeSlots(busy, w(11, 13), bounds);
    expect(slots.length).toBe(3);
    for (const slot of slots) {
      expect(slot.endMs - slot.startMs).toBe(2 * H);
      expect(busy.some((window) => overlaps(window, slot))).toBe(false);
    }
    expect(slots[0]).toEqual(w(14, 16));
  });

  it('never offers a start before the earliest allowed one, and starts on a quarter hour there', () => {
    const earliestMs = 10 * H + 7 * 60_000;
    const slots = alternativeSlots([w(9, 11)], w(9, 10), { earliestMs, untilMs: 100 * H });
    for (const slot of slots) expect(slot.startMs).toBeGreaterThanOrEqual(earliestMs);
    expect(slots).toContainEqual({ startMs: 11 * H, endMs: 12 * H });
  });

  it('offers nothing past the edge of what was searched', () => {
    expect(alternativeSlots([w(0, 10)], w(5, 7), { earliestMs: 0, untilMs: 11 * H })).toEqual([]);
  });
});
