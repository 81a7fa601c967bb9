import { createEmbeddedFastState } from '../src/fast/embedded.ts';
import { describeFastStateContract } from './contracts/fast.contract.ts';

describeFastStateContract('embedded', async () => {
  const fast = createEmbeddedFastState();
  return { fast, cleanup: () => fast.close() };
});

// With an injected clock the arithmetic can be checked exactly, which real sleeps cannot do.
describe('embedded fast state with a manual clock', () => {
  let clock = 0;
  const fast = createEmbeddedFastState({ now: () => clock });

  beforeEach(() => {
    clock = 1_000_000;
  });

  afterAll(() => fast.close());

  it('refills continuously at refillPerSecond', async () => {
    await fast.takeToken('refill', 2, 4);
    await fast.takeToken('refill', 2, 4);
    clock += 125; // half a token at 4/s
    expect(await fast.takeToken('refill', 2, 4)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 125 });
    clock += 125;
    expect(await fast.takeToken('refill', 2, 4)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
  });

  it('mints no tokens when the clock steps backwards', async () => {
    await fast.takeToken('backwards', 1, 1);
    clock -= 60_000;
    expect((await fast.takeToken('backwards', 1, 1)).allowed).toBe(false);
  });

  it('aligns budget windows to multiples of windowMs since the epoch', async () => {
    clock = 1_000_250;
    expect(await fast.spendBudget('window', 3, 1_000, 3)).toEqual({
      allowed: true,
      used: 3,
      remaining: 0,
      resetMs: 750,
    });
    clock = 1_000_999;
    expect((await fast.spendBudget('window', 3, 1_000, 1)).allowed).toBe(false);
    clock = 1_001_000;
    expect(await fast.peekBudget('window', 3, 1_000)).toEqual({
      allowed: true,
      used: 0,
      remaining: 3,
      resetMs: 1_000,
    });
  });

  it('opens a from-first budget window at its first spend and keeps it for windowMs', async () => {
    clock = 1_000_250;
    expect(await fast.peekBudget('first', 3, 1_000, 'from-first')).toMatchObject({ used: 0, resetMs: 1_000 });
    expect(await fast.spendBudget('first', 3, 1_000, 3, 'from-first')).toMatchObject({
      allowed: true,
      remaining: 0,
      resetMs: 1_000,
    });
    // Past the epoch-aligned boundary (1_001_000) the window still holds: no refill mid-way.
    clock = 1_001_100;
    expect(await fast.spendBudget('first', 3, 1_000, 1, 'from-first')).toMatchObject({
      allowed: false,
      resetMs: 150,
    });
    clock = 1_001_250;
    expect(await fast.spendBudget('first', 3, 1_000, 1, 'from-first')).toMatchObject({
      allowed: true,
      used: 1,
      resetMs: 1_000,
    });
  });

  it('expires values and locks exactly at their ttl', async () => {
    await fast.put('ttl', 'v', 100);
    const owner = await fast.acquireLock('ttl', 100);
    clock += 99;
    expect(await fast.get('ttl')).toBe('v');
    expect(await fast.acquireLock('ttl', 100)).toBeNull();
    clock += 1;
    expect(await fast.get('ttl')).toBeNull();
    expect(await fast.releaseLock('ttl', owner ?? '')).toBe(false);
  });
});
