import type { CommitOrderPosition } from '@fincore/events';
import { CURSOR_MAX_LENGTH, invalidCursor } from '@fincore/platform';

/** A place in a tenant's event stream: after this event, written at `createdAt`. */
export interface EventCursor extends CommitOrderPosition {
  createdAt: Date;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const PARTS = /^(\d{1,20})\.(\d{1,19})\.(\d{1,15})$/;

/** Opaque to callers; decode refuses anything encode did not make with 400 invalid_cursor. */
export const eventCursor = {
  encode(cursor: EventCursor): string {
    return Buffer.from(`${cursor.key}.${cursor.position}.${cursor.createdAt.getTime()}`).toString(
      'base64url',
    );
  },

  decode(value: string, field = 'after'): EventCursor {
    const parts =
      value.length <= CURSOR_MAX_LENGTH && BASE64URL.test(value)
        ? PARTS.exec(Buffer.from(value, 'base64url').toString('utf8'))
        : null;
    // 64-bit integers: the key is unsigned, the position signed.
    if (!parts || BigInt(parts[1]) >= 2n ** 64n || BigInt(parts[2]) >= 2n ** 63n) throw invalidCursor(field);
    return { key: parts[1], position: parts[2], createdAt: new Date(Number(parts[3])) };
  },
};

/** Whether events after the cursor may already be gone: it was written before the retention window. */
export function isExpired(cursor: EventCursor, windowStart: Date): boolean {
  return cursor.createdAt < windowStart;
}

/** Where the retention window starts: outbox rows older than this may have been deleted. */
export function retentionWindowStart(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * 86_400_000);
}
