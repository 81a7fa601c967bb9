// Keeps the k smallest items offered under an order without sorting everything: a bounded max-heap
// holds the current best k, so a 50-item page over tens of thousands of documents costs O(n log k)
// comparisons and no array of all matches.

export class TopK<T> {
  // Ordered with the largest (worst) kept item at the root, so it is the one evicted.
  private readonly heap: T[] = [];

  private readonly k: number;
  private readonly compare: (a: T, b: T) => number;
  constructor(k: number, compare: (a: T, b: T) => number) {
    this.k = k;
    this.compare = compare;
  }

  /** Keeps `item` if it is among the k smallest so far; false when it was turned away. */
  offer(item: T): boolean {
    const heap = this.heap;
    if (heap.length < this.k) {
      heap.push(item);
      this.siftUp(heap.length - 1);
      return true;
    }
    if (heap.length > 0 && this.compare(item, heap[0] as T) < 0) {
      heap[0] = item;
      this.siftDown(0);
      return true;
    }
    return false;
  }

  /** The kept items, best first. */
  sorted(): T[] {
    return [...this.heap].sort(this.compare);
  }

  private siftUp(start: number): void {
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.compare(this.heap[index] as T, this.heap[parent] as T) <= 0) return;
      this.swap(index, parent);
      index = parent;
    }
  }

  private siftDown(start: number): void {
    const heap = this.heap;
    let index = start;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let largest = index;
      if (left < heap.length && this.compare(heap[left] as T, heap[largest] as T) > 0) largest = left;
      if (right < heap.length && this.compare(heap[right] as T, heap[largest] as T) > 0) largest = right;
      if (largest === index) return;
      this.swap(index, largest);
      index = largest;
    }
  }

  private swap(a: number, b: number): void {
    const held = this.heap[a] as T;
    this.heap[a] = this.heap[b] as T;
    this.heap[b] = held;
  }
}
