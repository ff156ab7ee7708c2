/**
 * Positions in a Redis stream, `<milliseconds>-<sequence>`. `0-0` lies before every entry; `$` (the
 * end, whatever it is when a read starts) is used only when no position could be read.
 */
export const STREAM_START = '0-0';
export const STREAM_END = '$';

/** True when entry `id` was added after `position`; every entry is after an unknown end. */
export function isAfter(id: string, position: string): boolean {
  if (position === STREAM_END) return true;
  const [ms, seq] = parse(id);
  const [atMs, atSeq] = parse(position);
  return ms > atMs || (ms === atMs && seq > atSeq);
}

function parse(id: string): [number, number] {
  const [ms, seq = '0'] = id.split('-');
  return [Number(ms), Number(seq)];
}
