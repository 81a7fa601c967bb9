// At most N runs at a time in one worker process. A run that finds no free slot is not waited
// for here: it stays in capture's active list for whichever worker frees a slot first.
export class Slots {
  private free: number;

  readonly size: number;
  constructor(size: number) {
    this.size = size;
    this.free = size;
  }

  tryAcquire(): boolean {
    if (this.free === 0) return false;
    this.free--;
    return true;
  }

  release(): void {
    this.free++;
  }
}
