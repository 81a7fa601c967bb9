// The fast-state contract: what the gateway relies on from any adapter (embedded or Redis). Each
// test opens a fresh, empty state and uses real (small) sleeps, so it exercises the adapter's own
// clock: the server's TIME for Redis, Date.now for the embedded one.
import type { BucketResult, FastState } from '../../src/fast/port.ts';

export interface OpenedFastState {
  fast: FastState;
  /** Closes the state and removes whatever the test left behind. */
  cleanup: () => Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const countAllowed = (results: { allowed: boolean }[]): number => results.filter((r) => r.allowed).length;

export function describeFastStateContract(adapterName: string, open: () => Promise<OpenedFastState>): void {
  describe(`fast state contract: ${adapterName}`, () => {
    let fast: FastState;
    let cleanup: (() => Promise<void>) | undefined;

    beforeEach(async () => {
      ({ fast, cleanup } = await open());
    });

    afterEach(async () => {
      await cleanup?.();
      cleanup = undefined;
    });

    /**
     * Budget windows are aligned to the epoch, so a test could straddle a boundary and see the
     * budget refill mid-way. Wait for the next window when less than `marginMs` of this one is left.
     */
    async function freshWindow(key: string, windowMs: number, marginMs: number): Promise<void> {
      const { resetMs } = await fast.peekBudget(key, 1, windowMs);
      if (resetMs < marginMs) await sleep(resetMs + 10);
    }

    describe('token buckets', () => {
      it('allows capacity takes, then refuses with a retry of about one refill interval', async () => {
        const takes: BucketResult[] = [];
        for (let i = 0; i < 4; i++) takes.push(await fast.takeToken('bucket', 3, 2));
        expect(takes.slice(0, 3)).toEqual([
          { allowed: true, remaining: 2, retryAfterMs: 0 },
          { allowed: true, remaining: 1, retryAfterMs: 0 },
          { allowed: true, remaining: 0, retryAfterMs: 0 },
        ]);
        const refused = takes[3];
        expect(refused).toMatchObject({ allowed: false, remaining: 0 });
        // 2 tokens/s: one token takes 500 ms, less whatever trickled in since the first take.
        expect(refused?.retryAfterMs).toBeGreaterThan(350);
        expect(refused?.retryAfterMs).toBeLessThanOrEqual(500);
      });

      it('refills over time, never beyond capacity', async () => {
        // Only lower bounds on elapsed time are asserted: a loaded machine may take any time between
        // two calls, and every extra millisecond refills the bucket a little more.
        expect(await fast.takeToken('bucket', 2, 20, 2)).toMatchObject({ allowed: true, remaining: 0 });
        await sleep(120); // at least 20/s × 120 ms = 2.4 tokens, capped at 2
        // Full, never fuller: one token taken leaves exactly one, however long the wait was.
        expect(await fast.takeToken('bucket', 2, 20, 1)).toMatchObject({ allowed: true, remaining: 1 });
      });

      it('takes cost tokens at once, or none when fewer are left', async () => {
        expect(await fast.takeToken('bucket', 5, 1, 3)).toEqual({
          allowed: true,
          remaining: 2,
          retryAfterMs: 0,
        });
        const refused = await fast.takeToken('bucket', 5, 1, 3);
        expect(refused).toMatchObject({ allowed: false, remaining: 2 });
        // One token short at 1 token/s.
        expect(refused.retryAfterMs).toBeGreaterThan(800);
        expect(refused.retryAfterMs).toBeLessThanOrEqual(1000);
        expect(await fast.takeToken('bucket', 5, 1, 2)).toMatchObject({ allowed: true, remaining: 0 });
      });

      it('keeps a separate bucket per key', async () => {
        expect((await fast.takeToken('bucket:a', 1, 1)).allowed).toBe(true);
        expect((await fast.takeToken('bucket:a', 1, 1)).allowed).toBe(false);
        expect((await fast.takeToken('bucket:b', 1, 1)).allowed).toBe(true);
      });

      it('allows exactly capacity out of many concurrent takes', async () => {
        const takes = Array.from({ length: 50 }, () => fast.takeToken('bucket', 10, 0.01));
        expect(countAllowed(await Promise.all(takes))).toBe(10);
      });

      it('rejects a bucket that could never grant', async () => {
        await expect(fast.takeToken('bucket', 0, 1)).rejects.toThrow(RangeError);
        await expect(fast.takeToken('bucket', 3, 0)).rejects.toThrow(RangeError);
        await expect(fast.takeToken('bucket', 3, 1, 4)).rejects.toThrow(RangeError);
        await expect(fast.takeToken('bucket', 3, 1, -1)).rejects.toThrow(RangeError);
      });
    });

    describe('budgets', () => {
      const windowMs = 60_000;

      it('spends up to the limit and refuses an over-limit spend without adding it', async () => {
        await freshWindow('budget', windowMs, 2_000);
        expect(await fast.spendBudget('budget', 10, windowMs, 7)).toMatchObject({
          allowed: true,
          used: 7,
          remaining: 3,
        });
        // 5 with 3 left: refused, and the 3 stay available.
        expect(await fast.spendBudget('budget', 10, windowMs, 5)).toMatchObject({
          allowed: false,
          used: 7,
          remaining: 3,
        });
        expect(await fast.spendBudget('budget', 10, windowMs, 3)).toMatchObject({
          allowed: true,
          used: 10,
          remaining: 0,
        });
        expect(await fast.spendBudget('budget', 10, windowMs, 1)).toMatchObject({
          allowed: false,
          used: 10,
          remaining: 0,
        });
      });

      it('peekBudget reflects spending without spending', async () => {
        await freshWindow('budget', windowMs, 2_000);
        expect(await fast.peekBudget('budget', 5, windowMs)).toMatchObject({
          allowed: true,
          used: 0,
          remaining: 5,
        });
        await fast.spendBudget('budget', 5, windowMs, 2);
        expect(await fast.peekBudget('budget', 5, windowMs)).toMatchObject({
          allowed: true,
          used: 2,
          remaining: 3,
        });
        expect(await fast.peekBudget('budget', 5, windowMs)).toMatchObject({ used: 2 });
        await fast.spendBudget('budget', 5, windowMs, 3);
        expect(await fast.peekBudget('budget', 5, windowMs)).toMatchObject({
          allowed: false,
          used: 5,
          remaining: 0,
        });
      });

      it('reports resetMs within the current window', async () => {
        const spent = await fast.spendBudget('budget', 5, 300, 1);
        const peeked = await fast.peekBudget('budget', 5, 300);
        for (const { resetMs } of [spent, peeked]) {
          expect(resetMs).toBeGreaterThan(0);
          expect(resetMs).toBeLessThanOrEqual(300);
        }
      });

      it('starts each new window whole', async () => {
        // A window long enough that a loaded machine cannot cross it between two calls.
        await freshWindow('budget', 1_000, 700);
        expect((await fast.spendBudget('budget', 5, 1_000, 5)).allowed).toBe(true);
        const refused = await fast.spendBudget('budget', 5, 1_000, 1);
        expect(refused.allowed).toBe(false);
        await sleep(refused.resetMs + 30);
        expect(await fast.spendBudget('budget', 5, 1_000, 5)).toMatchObject({
          allowed: true,
          used: 5,
          remaining: 0,
        });
      });

      it('keeps a from-first window for windowMs from its first spend, then starts it whole', async () => {
        // No freshWindow: a from-first window has no boundary but the one its first spend sets.
        const opened = await fast.spendBudget('first', 2, 400, 2, 'from-first');
        expect(opened).toMatchObject({ allowed: true, used: 2, remaining: 0 });
        expect(opened.resetMs).toBeGreaterThan(350);
        await sleep(50);
        const held = await fast.peekBudget('first', 2, 400, 'from-first');
        expect(held).toMatchObject({ allowed: false, used: 2 });
        // However long the machine took, the window runs from the first spend, never beyond it.
        expect(held.resetMs).toBeLessThanOrEqual(opened.resetMs - 50);
        await sleep(held.resetMs + 30);
        expect(await fast.spendBudget('first', 2, 400, 2, 'from-first')).toMatchObject({
          allowed: true,
          used: 2,
        });
      });

      it('allows exactly the limit out of many concurrent spends', async () => {
        await freshWindow('budget', windowMs, 2_000);
        const spends = Array.from({ length: 30 }, () => fast.spendBudget('budget', 7, windowMs, 1));
        expect(countAllowed(await Promise.all(spends))).toBe(7);
        expect(await fast.peekBudget('budget', 7, windowMs)).toMatchObject({ used: 7, remaining: 0 });
      });

      it('keeps a separate budget per key', async () => {
        await freshWindow('budget:a', windowMs, 2_000);
        await fast.spendBudget('budget:a', 3, windowMs, 3);
        expect(await fast.peekBudget('budget:b', 3, windowMs)).toMatchObject({ used: 0, remaining: 3 });
      });

      it('rejects limits, windows and amounts that are not whole and non-negative', async () => {
        await expect(fast.spendBudget('budget', -1, windowMs, 1)).rejects.toThrow(RangeError);
        await expect(fast.spendBudget('budget', 5, 0, 1)).rejects.toThrow(RangeError);
        await expect(fast.spendBudget('budget', 5, windowMs, -1)).rejects.toThrow(RangeError);
        await expect(fast.spendBudget('budget', 5, windowMs, 1.5)).rejects.toThrow(RangeError);
        await expect(fast.peekBudget('budget', 5, 0)).rejects.toThrow(RangeError);
      });
    });

    describe('locks', () => {
      it('refuses a second acquire while the lock is held', async () => {
        const owner = await fast.acquireLock('lock', 10_000);
        expect(typeof owner).toBe('string');
        expect(await fast.acquireLock('lock', 10_000)).toBeNull();
      });

      it('lets only the owner release it', async () => {
        const owner = await fast.acquireLock('lock', 10_000);
        expect(await fast.releaseLock('lock', 'someone-else')).toBe(false);
        expect(await fast.acquireLock('lock', 10_000)).toBeNull();
        expect(await fast.releaseLock('lock', owner ?? '')).toBe(true);
        const next = await fast.acquireLock('lock', 10_000);
        expect(next).not.toBeNull();
        expect(next).not.toBe(owner);
      });

      it('expires after its ttl, and the old owner can no longer release it', async () => {
        const first = await fast.acquireLock('lock', 100);
        await sleep(200);
        const second = await fast.acquireLock('lock', 10_000);
        expect(second).not.toBeNull();
        expect(await fast.releaseLock('lock', first ?? '')).toBe(false);
        expect(await fast.acquireLock('lock', 10_000)).toBeNull();
      });

      it('grants exactly one of many concurrent acquires', async () => {
        const owners = await Promise.all(Array.from({ length: 20 }, () => fast.acquireLock('lock', 10_000)));
        expect(owners.filter((owner) => owner !== null)).toHaveLength(1);
      });
    });

    describe('values', () => {
      it('puts, gets and overwrites', async () => {
        expect(await fast.get('value')).toBeNull();
        await fast.put('value', 'one', 10_000);
        expect(await fast.get('value')).toBe('one');
        await fast.put('value', 'two', 10_000);
        expect(await fast.get('value')).toBe('two');
      });

      it('forgets a value after its ttl', async () => {
        // A ttl no loaded machine outlasts between two calls; only its lower bound is waited for.
        await fast.put('value', 'short', 1_000);
        expect(await fast.get('value')).toBe('short');
        await sleep(1_100);
        expect(await fast.get('value')).toBeNull();
      });

      it('putIfAbsent stores only once, until the value expires', async () => {
        expect(await fast.putIfAbsent('value', 'first', 1_000)).toBe(true);
        expect(await fast.putIfAbsent('value', 'second', 10_000)).toBe(false);
        expect(await fast.get('value')).toBe('first');
        await sleep(1_100);
        expect(await fast.putIfAbsent('value', 'third', 10_000)).toBe(true);
        expect(await fast.get('value')).toBe('third');
      });

      it('putIfAbsent lets exactly one of many concurrent writers win', async () => {
        const writers = Array.from({ length: 20 }, (_, i) =>
          fast.putIfAbsent('value', `writer-${i}`, 10_000),
        );
        const stored = await Promise.all(writers);
        expect(stored.filter(Boolean)).toHaveLength(1);
        expect(await fast.get('value')).toBe(`writer-${stored.indexOf(true)}`);
      });

      it('take returns the value once, then null', async () => {
        await fast.put('token', 'confirm-me', 10_000);
        expect(await fast.take('token')).toBe('confirm-me');
        expect(await fast.take('token')).toBeNull();
        expect(await fast.get('token')).toBeNull();
      });

      it('take hands a value to exactly one of many concurrent takers', async () => {
        await fast.put('token', 'confirm-me', 10_000);
        const taken = await Promise.all(Array.from({ length: 20 }, () => fast.take('token')));
        expect(taken.filter((value) => value !== null)).toEqual(['confirm-me']);
      });

      it('delete removes a value, and deleting a missing one is fine', async () => {
        await fast.put('value', 'doomed', 10_000);
        await fast.delete('value');
        expect(await fast.get('value')).toBeNull();
        await expect(fast.delete('value')).resolves.toBeUndefined();
      });

      it('rejects a ttl that is not positive', async () => {
        await expect(fast.put('value', 'v', 0)).rejects.toThrow(RangeError);
        await expect(fast.putIfAbsent('value', 'v', -5)).rejects.toThrow(RangeError);
        await expect(fast.acquireLock('lock', 0)).rejects.toThrow(RangeError);
      });
    });

    it('keeps buckets, budgets, locks and values under the same key apart', async () => {
      const owner = await fast.acquireLock('shared', 10_000);
      await fast.put('shared', 'value', 10_000);
      expect((await fast.takeToken('shared', 1, 1)).allowed).toBe(true);
      expect((await fast.spendBudget('shared', 1, 60_000, 1)).allowed).toBe(true);
      expect(await fast.get('shared')).toBe('value');
      await fast.delete('shared');
      expect(await fast.acquireLock('shared', 10_000)).toBeNull();
      expect(await fast.releaseLock('shared', owner ?? '')).toBe(true);
    });

    it('refuses work after close, and closing twice is fine', async () => {
      await fast.close();
      await expect(fast.get('value')).rejects.toThrow();
      await expect(fast.close()).resolves.toBeUndefined();
    });
  });
}
