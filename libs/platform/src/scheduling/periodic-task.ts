/**
 * Runs a piece of housekeeping every `intervalMs`, never two runs at once in one process (a run
 * that outlasts the interval skips the next tick). The timer does not keep the process alive.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly intervalMs: number,
    private readonly run: () => Promise<unknown>,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.run().finally(() => (this.running = undefined));
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run under way, so it finishes before its connections close. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}

/**
 * Calls `deleteBatch(batchSize)` until it deletes fewer than `batchSize` rows; returns the total.
 * Each batch is a statement of its own, so no lock is held longer than one batch takes.
 */
export async function deleteInBatches(
  batchSize: number,
  deleteBatch: (limit: number) => Promise<number>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(batchSize);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
