// A sorted list of index entries kept in bounded chunks, so an insert or a delete moves at most one
// chunk's worth of entries and a seek is two binary searches: O(log n) to find a page's start,
// O(sqrt n)-ish memory moves per write, no rebalancing. The embedded store's ordered indexes are
// built on it (ordered-index.ts).

/** Where an entry sits: chunk number and offset within the chunk. */
export interface Position {
  chunk: number;
  offset: number;
}

const MAX_CHUNK = 1024;

export class SortedList<T> {
  private readonly chunks: T[][] = [];
  private total = 0;

  private readonly compare: (a: T, b: T) => number;
  constructor(compare: (a: T, b: T) => number) {
    this.compare = compare;
  }

  get size(): number {
    return this.total;
  }

  insert(entry: T): void {
    if (this.chunks.length === 0) {
      this.chunks.push([entry]);
      this.total = 1;
      return;
    }
    const at = this.lowerBound((held) => this.compare(held, entry) >= 0);
    // Past the end: append to the last chunk.
    const chunkIndex = Math.min(at.chunk, this.chunks.length - 1);
    const chunk = this.chunks[chunkIndex] as T[];
    const offset = at.chunk === chunkIndex ? at.offset : chunk.length;
    chunk.splice(offset, 0, entry);
    this.total++;
    if (chunk.length > MAX_CHUNK) this.chunks.splice(chunkIndex + 1, 0, chunk.splice(MAX_CHUNK >> 1));
  }

  /** Removes the entry that compares equal to `entry`; false when there is none. */
  remove(entry: T): boolean {
    const at = this.lowerBound((held) => this.compare(held, entry) >= 0);
    const chunk = this.chunks[at.chunk];
    if (chunk === undefined || at.offset >= chunk.length) return false;
    if (this.compare(chunk[at.offset] as T, entry) !== 0) return false;
    chunk.splice(at.offset, 1);
    this.total--;
    if (chunk.length === 0) this.chunks.splice(at.chunk, 1);
    return true;
  }

  /**
   * The first position whose entry satisfies `atOrAfter`, a predicate that is false for a prefix
   * of the list and true for the rest; { chunk: chunks.length, offset: 0 } when none does.
   */
  lowerBound(atOrAfter: (entry: T) => boolean): Position {
    let low = 0;
    let high = this.chunks.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const chunk = this.chunks[middle] as T[];
      if (atOrAfter(chunk[chunk.length - 1] as T)) high = middle;
      else low = middle + 1;
    }
    const chunk = this.chunks[low];
    if (chunk === undefined) return { chunk: low, offset: 0 };
    let first = 0;
    let last = chunk.length;
    while (first < last) {
      const middle = (first + last) >> 1;
      if (atOrAfter(chunk[middle] as T)) last = middle;
      else first = middle + 1;
    }
    return { chunk: low, offset: first };
  }

  /** Entries from `start` towards the end. */
  *forward(start: Position): Generator<T> {
    for (let chunkIndex = start.chunk; chunkIndex < this.chunks.length; chunkIndex++) {
      const chunk = this.chunks[chunkIndex] as T[];
      const from = chunkIndex === start.chunk ? start.offset : 0;
      for (let offset = from; offset < chunk.length; offset++) yield chunk[offset] as T;
    }
  }

  /** Entries strictly before `end`, towards the start (the last one first). */
  *backward(end: Position): Generator<T> {
    for (let chunkIndex = Math.min(end.chunk, this.chunks.length - 1); chunkIndex >= 0; chunkIndex--) {
      const chunk = this.chunks[chunkIndex] as T[];
      const from = chunkIndex === end.chunk ? end.offset - 1 : chunk.length - 1;
      for (let offset = from; offset >= 0; offset--) yield chunk[offset] as T;
    }
  }
}
