import pino, { DestinationStream, Logger } from 'pino';

/** Beyond this many characters held, lines are written at once. */
const MAX_HELD = 64 * 1024;

/**
 * Lines written together once per turn of the event loop, in order, with one write call: under
 * load many requests finish per turn, and a write per line was the dearest part of the line.
 * Only for lines written after their answer left (the request line), which nothing can wait for
 * before the answer. What is held is written on exit and on close.
 */
export class BatchedLines implements DestinationStream {
  private held = '';
  private scheduled = false;

  constructor(private readonly out: { write(text: string): unknown }) {
    live.add(this);
  }

  write(line: string): void {
    this.held += line;
    if (this.held.length >= MAX_HELD) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushHeld);
    }
  }

  flush(): void {
    if (this.held === '') return;
    const text = this.held;
    this.held = '';
    this.out.write(text);
  }

  close(): void {
    this.flush();
    live.delete(this);
  }

  private readonly flushHeld = () => {
    this.scheduled = false;
    this.flush();
  };
}

const live = new Set<BatchedLines>();
process.on('exit', () => {
  for (const lines of live) lines.flush();
});

/**
 * The logger of the line per request: the app's name and level, on standard output like every
 * other line, written in batches (see BatchedLines).
 */
export function createRequestLog(name: string, level: string): { log: Logger; close(): void } {
  const lines = new BatchedLines(pino.destination({ dest: 1, sync: true }));
  return { log: pino({ name, level }, lines), close: () => lines.close() };
}
