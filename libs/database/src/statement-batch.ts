interface Waiting<Request, Answer> {
  request: Request;
  resolve: (answer: Answer) => void;
  reject: (error: unknown) => void;
}

/** The two ways to run one kind of write: a request on its own, or several in one statement. */
export interface BatchWays<Request, Answer> {
  alone(request: Request): Promise<Answer>;
  /** One answer per request, in order; undefined for a request the statement did not take. */
  together(requests: readonly Request[]): Promise<ReadonlyArray<Answer | undefined>>;
}

/**
 * Runs one kind of write with as few statements as the load allows. A request alone goes at once,
 * on its own; those that come while a statement runs go together in the next, at most `maxBatch`
 * to a statement. Nothing waits for company: under light load every request is a statement of its
 * own, as without batching. A request the batch did not take, or every request of a batch that
 * failed, runs on its own.
 */
export class StatementBatch<Request, Answer> {
  private waiting: Array<Waiting<Request, Answer>> = [];
  private flushing = false;

  constructor(
    private readonly ways: BatchWays<Request, Answer>,
    private readonly maxBatch: number,
  ) {}

  run(request: Request): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0, this.maxBatch);
        if (batch.length === 1) await this.runAlone(batch[0]);
        else await this.runTogether(batch);
      }
    } finally {
      this.flushing = false;
    }
  }

  private async runTogether(batch: Array<Waiting<Request, Answer>>): Promise<void> {
    const answers = await this.ways
      .together(batch.map((w) => w.request))
      .catch((): ReadonlyArray<Answer | undefined> => []);
    batch.forEach((waiting, i) => {
      const answer = answers[i];
      if (answer !== undefined) waiting.resolve(answer);
      // Not awaited: the others go on in parallel, not behind the next batch.
      else void this.runAlone(waiting);
    });
  }

  private async runAlone({ request, resolve, reject }: Waiting<Request, Answer>): Promise<void> {
    try {
      resolve(await this.ways.alone(request));
    } catch (error) {
      reject(error);
    }
  }
}
