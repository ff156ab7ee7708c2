import { z } from 'zod';
import { invalidCursor } from './validation.problems';

/** A keyset position over (createdAt desc, id desc): stable while new rows arrive. */
export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

export const CURSOR_MAX_LENGTH = 200;

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Rows are created after 1970 and before 10000; anything else was not made by encode. */
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The query parameter: an opaque string of bounded length; its content is checked by decode. */
export function cursorParam() {
  return z.string().max(CURSOR_MAX_LENGTH);
}

/** Opaque cursors of keyset pages; decode refuses anything encode did not make with 400 invalid_cursor. */
export const keysetCursor = {
  encode(position: KeysetPosition): string {
    return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`, 'utf8').toString('base64url');
  },

  decode(cursor: string, field = 'cursor'): KeysetPosition {
    const position = cursor.length <= CURSOR_MAX_LENGTH && BASE64URL.test(cursor) ? parse(cursor) : undefined;
    if (!position) throw invalidCursor(field);
    return position;
  },
};

function parse(cursor: string): KeysetPosition | undefined {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (parts.length !== 2) return undefined;
  const [at, id] = parts;
  if (!ISO_INSTANT.test(at) || !UUID.test(id)) return undefined;
  const createdAt = new Date(at);
  const time = createdAt.getTime();
  // The round trip refuses dates the calendar does not have (2026-02-30 would roll over).
  if (Number.isNaN(time) || time < 0 || time > LATEST || createdAt.toISOString() !== at) return undefined;
  return { createdAt, id };
}
