/** Adds `hits` to the shared counter of `key` (starting its window when new): the total and the ms left. */
export type SharedCount = (
  key: string,
  hits: number,
  windowMs: number,
) => Promise<{ count: number; ttlMs: number }>;

export interface BudgetDecision {
  allowed: boolean;
  /** Hits in the window as far as this replica knows, this one included. */
  count: number;
  /** Seconds until the window resets. */
  retryAfter: number;
}

export interface RateBudgetOptions {
  max: number;
  windowSeconds: number;
  /**
   * Hits a replica may admit per key without asking the shared counter, as a fraction of `max`
   * (rounded down; 0 asks on every hit). Far from the limit hits are counted locally and sent in
   * one INCRBY; within this many hits of the limit every hit asks the counter.
   */
  tolerance: number;
  /** Longest a locally counted hit waits before it is sent. */
  syncMs: number;
}

interface KeyState {
  /** The shared count at the last answer of the counter. */
  known: number;
  /** Hits admitted here and not yet sent. */
  pending: number;
  /** When the window ends, by the counter's TTL; 0 until the counter answered once. */
  resetsAt: number;
  sentAt: number;
  sending: boolean;
}

/**
 * A fixed-window request budget shared by every replica through one counter, without a round
 * trip per request: each replica counts hits locally and adds them to the counter in batches of
 * at most `floor(max × tolerance)` or every `syncMs`, whichever comes first. The first hit of a
 * window and every hit near the limit ask the counter. So in a window the limit is exceeded by at
 * most that batch per replica, plus what other replicas sent since this one last heard the count
 * (at most `syncMs` ago while it is busy). When the counter fails, requests are allowed.
 */
export class RateBudget {
  private readonly states = new Map<string, KeyState>();
  private readonly batch: number;

  constructor(
    private readonly options: RateBudgetOptions,
    private readonly count: SharedCount,
    private readonly onError: (error: Error) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.batch = Math.floor(options.max * options.tolerance);
  }

  /** Answers at once when the hit is counted locally; a promise when the shared counter is asked. */
  consume(key: string): BudgetDecision | Promise<BudgetDecision> {
    const now = this.now();
    let state = this.states.get(key);
    if (!state || (state.resetsAt !== 0 && now >= state.resetsAt)) {
      state = { known: 0, pending: 0, resetsAt: 0, sentAt: now, sending: false };
      this.states.set(key, state);
    }
    const seen = state.known + state.pending + 1;
    if (this.batch === 0 || state.resetsAt === 0 || seen > this.options.max - this.batch) {
      return this.ask(key, state);
    }
    state.pending += 1;
    if (state.pending >= this.batch || now - state.sentAt >= this.options.syncMs) void this.send(key, state);
    return { allowed: true, count: seen, retryAfter: this.secondsLeft(state, now) };
  }

  /** Sends what was counted locally and forgets windows that ended: call every `syncMs`. */
  async flush(): Promise<void> {
    const now = this.now();
    const sends: Promise<unknown>[] = [];
    for (const [key, state] of this.states) {
      if (state.resetsAt !== 0 && now >= state.resetsAt) this.states.delete(key);
      else if (state.pending > 0) sends.push(this.send(key, state));
    }
    await Promise.all(sends);
  }

  /** This hit and the pending ones, answered by the counter: exact at the limit. */
  private async ask(key: string, state: KeyState): Promise<BudgetDecision> {
    const hits = state.pending + 1;
    state.pending = 0;
    try {
      const { count, ttlMs } = await this.count(key, hits, this.options.windowSeconds * 1000);
      this.heard(state, count, ttlMs);
      return {
        allowed: count <= this.options.max,
        count,
        retryAfter: Math.max(1, Math.ceil(ttlMs / 1000)),
      };
    } catch (error) {
      this.onError(error as Error);
      return { allowed: true, count: 0, retryAfter: 0 };
    }
  }

  private async send(key: string, state: KeyState): Promise<void> {
    if (state.sending || state.pending === 0) return;
    const hits = state.pending;
    state.pending = 0;
    state.sending = true;
    state.sentAt = this.now();
    try {
      const { count, ttlMs } = await this.count(key, hits, this.options.windowSeconds * 1000);
      this.heard(state, count, ttlMs);
    } catch (error) {
      // Hits that could not be sent are not counted: a counter outage allows requests anyway.
      this.onError(error as Error);
    } finally {
      state.sending = false;
    }
  }

  private heard(state: KeyState, count: number, ttlMs: number): void {
    state.known = count;
    state.resetsAt = this.now() + Math.max(0, ttlMs);
    state.sentAt = this.now();
  }

  private secondsLeft(state: KeyState, now: number): number {
    return Math.max(1, Math.ceil((state.resetsAt - now) / 1000));
  }
}
