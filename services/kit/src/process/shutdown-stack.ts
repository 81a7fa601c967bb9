// What a process opened, in the order it opened it, so shutdown can close it in reverse: the
// gateway stops taking requests before the stores and the event log it writes to are closed.
import type { Logger } from '../log.ts';

export type ShutdownStep = () => Promise<unknown> | unknown;

export class ShutdownStack {
  readonly #steps: ShutdownStep[] = [];
  #unwound: Promise<void> | undefined;

  private readonly logger: Logger;
  constructor(logger: Logger) {
    this.logger = logger;
  }

  /** Registers how to close something just opened. */
  push(step: ShutdownStep): void {
    this.#steps.push(step);
  }

  /**
   * Runs every step, newest first, each even if an earlier one failed (a failure is logged, not
   * thrown: the rest still has to close). Calling it again returns the same run.
   */
  unwind(): Promise<void> {
    this.#unwound ??= this.#run();
    return this.#unwound;
  }

  async #run(): Promise<void> {
    for (const step of this.#steps.splice(0).reverse()) {
      try {
        await step();
      } catch (err) {
        this.logger.warn({ err }, 'shutdown step failed');
      }
    }
  }
}
