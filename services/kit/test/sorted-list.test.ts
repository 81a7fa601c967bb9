// The chunked sorted list under the embedded store's ordered indexes, against a plain sorted array:
// enough entries to split and drop chunks (chunks hold up to 1 024), inserts and removes in random
// places, and seeks and walks in both directions from every kind of position.
import { SortedList } from '../src/store/sorted-list.ts';

/** A deterministic pseudo-random sequence (xorshift), so every run does the same operations. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

const byNumber = (a: number, b: number): number => a - b;

describe('SortedList', () => {
  it('stays sorted and complete through random inserts and removes across many chunks', () => {
    const random = sequence(7);
    const list = new SortedList<number>(byNumber);
    const reference: number[] = [];
    let missed = 0;
    for (let step = 0; step < 12_000; step++) {
      if (reference.length > 0 && random() < 0.3) {
        const at = Math.floor(random() * reference.length);
        const value = reference[at] as number;
        reference.splice(at, 1);
        if (!list.remove(value)) missed++;
      } else {
        // Mostly ascending (like createdAt), sometimes anywhere.
        const value = random() < 0.7 ? step * 10 : Math.floor(random() * step * 10) + 0.5;
        reference.push(value);
        list.insert(value);
      }
    }
    reference.sort(byNumber);
    expect(missed).toBe(0);
    expect(list.size).toBe(reference.length);
    expect([...list.forward({ chunk: 0, offset: 0 })].join()).toBe(reference.join());
    const end = list.lowerBound(() => false);
    expect([...list.backward(end)].join()).toBe([...reference].reverse().join());
    expect(list.remove(-1)).toBe(false);
  });

  it('seeks to the first entry at or after a bound and walks either way from there', () => {
    const list = new SortedList<number>(byNumber);
    const values = Array.from({ length: 5000 }, (_, n) => n * 2);
    for (const value of [...values].reverse()) list.insert(value);
    for (const bound of [-1, 0, 1, 2047, 2048, 4000, 9997, 9998, 9999, 20000]) {
      const at = list.lowerBound((value) => value >= bound);
      const after = values.filter((value) => value >= bound);
      const before = values.filter((value) => value < bound).reverse();
      expect([...list.forward(at)].join()).toBe(after.join());
      expect([...list.backward(at)].join()).toBe(before.join());
    }
  });
});
