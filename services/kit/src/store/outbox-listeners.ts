// Why: both store adapters tell their outbox listeners (the relay) that events were committed, with
// the same rules; this is that bookkeeping once. The listeners are called in a microtask after the
// commit, and a failing one breaks neither the commit nor the other listeners.

export class OutboxListeners {
  private readonly listeners = new Set<() => void>();

  get size(): number {
    return this.listeners.size;
  }

  /** Adds `listener`; the answer removes it again. */
  add(listener: () => void): () => void {
    // Wrapped so the same function can subscribe twice and unsubscribe each independently.
    const wrapped = (): void => listener();
    this.listeners.add(wrapped);
    return () => {
      this.listeners.delete(wrapped);
    };
  }

  notify(): void {
    for (const listener of this.listeners) {
      queueMicrotask(() => {
        try {
          listener();
        } catch (error) {
          // A failing listener (the relay) must not break commits or the other listeners.
          console.error('outbox listener failed', error);
        }
      });
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
