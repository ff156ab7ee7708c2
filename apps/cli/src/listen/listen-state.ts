import { mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { generateSecret } from '@fincore/webhooks';

/** Where `listen` keeps its signing secret and cursor, so that a restart resumes with both. */
export class ListenState {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** The secret of earlier runs, or a new one kept for the next. */
  secret(): string {
    const existing = this.read('listen-secret');
    if (existing) return existing;
    const secret = generateSecret();
    this.write('listen-secret', secret);
    return secret;
  }

  cursor(): string | undefined {
    return this.read('listen-cursor');
  }

  /** Written whole or not at all: a crash mid-write leaves the previous cursor. */
  saveCursor(cursor: string): void {
    this.write('listen-cursor', cursor);
  }

  private read(name: string): string | undefined {
    try {
      return readFileSync(join(this.dir, name), 'utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  }

  private write(name: string, value: string): void {
    const path = join(this.dir, name);
    writeFileSync(`${path}.tmp`, `${value}\n`, { mode: 0o600 });
    renameSync(`${path}.tmp`, path);
  }
}
