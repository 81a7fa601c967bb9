// Reassembles a stream of arbitrary chunks into what a reader asks for: exact byte counts, a
// header up to a marker, whole fixed-size records, or text lines. Only the few bytes that straddle
// two chunks are ever copied, so a large file is never held twice. A reader that stops before the
// end closes its queue (readWith, or close() in a finally): the stream underneath may be an
// object-store response holding a pooled socket, or an open file, until it is read out or closed.

const EMPTY = new Uint8Array(0);

export class ByteQueue {
  private readonly iterator: AsyncIterator<Uint8Array>;
  private buffer: Uint8Array = EMPTY;
  private position = 0;
  private ended = false;
  /** Bytes consumed so far (handed out by a read), for error sentences. */
  consumed = 0;

  constructor(stream: AsyncIterable<Uint8Array>) {
    this.iterator = stream[Symbol.asyncIterator]();
  }

  private get available(): number {
    return this.buffer.byteLength - this.position;
  }

  /** Pulls one more chunk onto the unread bytes; false at the end of the stream. */
  private async pull(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.iterator.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    const chunk = next.value;
    if (this.available === 0) {
      this.buffer = chunk;
    } else {
      const joined = new Uint8Array(this.available + chunk.byteLength);
      joined.set(this.buffer.subarray(this.position), 0);
      joined.set(chunk, this.available);
      this.buffer = joined;
    }
    this.position = 0;
    return true;
  }

  private take(bytes: number): Uint8Array {
    const out = this.buffer.subarray(this.position, this.position + bytes);
    this.position += bytes;
    this.consumed += bytes;
    return out;
  }

  /** Exactly `bytes` bytes, or fewer if the stream ends first (the caller reports truncation). */
  async read(bytes: number): Promise<Uint8Array> {
    while (this.available < bytes && (await this.pull()));
    return this.take(Math.min(bytes, this.available));
  }

  /**
   * The bytes up to and including the first occurrence of `marker`, or null when the marker is not
   * within `maxBytes` (or the stream ends first).
   */
  async readThrough(marker: Uint8Array, maxBytes: number): Promise<Uint8Array | null> {
    let searchFrom = 0;
    for (;;) {
      const found = indexOf(this.buffer, marker, this.position + searchFrom);
      if (found >= 0 && found + marker.byteLength - this.position <= maxBytes) {
        return this.take(found + marker.byteLength - this.position);
      }
      if (this.available >= maxBytes) return null;
      searchFrom = Math.max(0, this.available - marker.byteLength + 1);
      if (!(await this.pull())) return null;
    }
  }

  /**
   * Blocks of whole records, at most `maxRecords` each, until `count` records were handed out or
   * the stream ends. The caller compares what it got with what it was promised.
   */
  async *records(recordBytes: number, count: number, maxRecords: number): AsyncGenerator<Uint8Array> {
    let remaining = count;
    while (remaining > 0) {
      if (this.available < recordBytes && !(await this.pull())) return;
      const whole = Math.floor(this.available / recordBytes);
      if (whole === 0) continue;
      const records = Math.min(whole, remaining, maxRecords);
      remaining -= records;
      yield this.take(records * recordBytes);
    }
  }

  /** Text lines (without the line break), each at most `maxBytes`; a longer one yields null. */
  async *lines(maxBytes: number): AsyncGenerator<string | null> {
    const decoder = new TextDecoder('latin1');
    for (;;) {
      let end = this.buffer.indexOf(0x0a, this.position);
      while (end < 0) {
        if (this.available > maxBytes) {
          yield null;
          return;
        }
        if (!(await this.pull())) {
          if (this.available > 0) yield decoder.decode(this.take(this.available));
          return;
        }
        end = this.buffer.indexOf(0x0a, this.position);
      }
      if (end - this.position > maxBytes) {
        yield null;
        return;
      }
      const line = this.take(end - this.position + 1);
      yield decoder.decode(line.subarray(0, line.byteLength - 1));
    }
  }

  /**
   * Lets the stream go, read out or not: its source's finally blocks run (a response body is
   * destroyed, a file closed). Idempotent; later reads see the end.
   */
  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.buffer = EMPTY;
    this.position = 0;
    await this.iterator.return?.();
  }

  /** True when every byte of the stream has been handed out. */
  async atEnd(): Promise<boolean> {
    return this.available === 0 && !(await this.pull());
  }
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  if (first === undefined) return from;
  for (let at = haystack.indexOf(first, from); at >= 0; at = haystack.indexOf(first, at + 1)) {
    if (at + needle.byteLength > haystack.byteLength) return -1;
    let match = true;
    for (let k = 1; k < needle.byteLength; k++) {
      if (haystack[at + k] !== needle[k]) {
        match = false;
        break;
      }
    }
    if (match) return at;
  }
  return -1;
}

/** Runs `use` on a queue over `stream`, and lets the stream go however `use` ends. */
export async function readWith<T>(
  stream: AsyncIterable<Uint8Array>,
  use: (queue: ByteQueue) => Promise<T>,
): Promise<T> {
  const queue = new ByteQueue(stream);
  try {
    return await use(queue);
  } finally {
    await queue.close();
  }
}

/** Yields what `use` yields from a queue over `stream`, and lets the stream go however it ends. */
export async function* yieldWith<T>(
  stream: AsyncIterable<Uint8Array>,
  use: (queue: ByteQueue) => AsyncIterable<T>,
): AsyncGenerator<T> {
  const queue = new ByteQueue(stream);
  try {
    yield* use(queue);
  } finally {
    await queue.close();
  }
}
