/** Opaque keyset cursor over (createdAt desc, id desc): stable while new rows arrive. */
export interface CursorPosition {
  createdAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`, 'utf8').toString('base64url');
}

/** The position, or undefined when the cursor was not made by encodeCursor. */
export function decodeCursor(cursor: string): CursorPosition | undefined {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length || !id || !UUID.test(id)) return undefined;
  const createdAt = new Date(at);
  return Number.isNaN(createdAt.getTime()) ? undefined : { createdAt, id };
}
