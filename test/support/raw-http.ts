import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A request as it goes on the wire: the target exactly as written (no normalising of
 * percent-encoding or raw bytes, which fetch and node:http would do or refuse), headers and body bytes.
 */
export interface RawRequest {
  method: string;
  /** Request target, latin1: each char is one byte on the wire. */
  target: string;
  headers: Array<[string, string]>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  json?: unknown;
}

/** Sends one request on its own connection (Connection: close) and reads the whole answer. */
export function sendRaw(baseUrl: string, request: RawRequest, timeoutMs = 15_000): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const head = [`${request.method} ${request.target} HTTP/1.1`, `host: ${hostname}:${port}`];
  for (const [name, value] of request.headers) head.push(`${name}: ${value}`);
  if (request.body !== undefined && !request.headers.some(([n]) => n.toLowerCase() === 'content-length'))
    head.push(`content-length: ${request.body.length}`);
  head.push('connection: close', '', '');
  const bytes = Buffer.concat([Buffer.from(head.join('\r\n'), 'latin1'), request.body ?? Buffer.alloc(0)]);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on('data', (chunk) => chunks.push(chunk));
    // the server may answer and close before it has read a large body (EPIPE, ECONNRESET while
    // writing): what it answered counts, the error only when there is no answer
    let failure: Error | undefined;
    socket.on('error', (error) => (failure = error));
    socket.on('close', () => {
      if (!chunks.length) return reject(failure ?? new Error('connection closed without an answer'));
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
    // no half-close: the server aborts a request whose client ended its side; it closes after answering
    socket.write(bytes);
  });
}

function parseResponse(raw: Buffer): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no HTTP answer: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`);
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  const text = body.toString('utf8');
  let json: unknown;
  if (/json/.test(headers['content-type'] ?? '') && text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status, headers, body, text, json };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const lineEnd = data.indexOf('\r\n', at);
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Bash $'…' quoting of bytes: printable ASCII as is, everything else as \xNN; long runs of one printable char as a printf. */
function shellBytes(bytes: Buffer): string {
  const out: string[] = [];
  let quoted = '';
  const flush = () => {
    if (quoted) out.push(`$'${quoted}'`);
    quoted = '';
  };
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    let run = 1;
    while (bytes[i + run] === b) run++;
    if (run >= 64 && b > 0x20 && b < 0x7f && b !== 0x27 && b !== 0x5c && b !== 0x25) {
      flush();
      out.push(`"$(printf '%${run}s' '' | tr ' ' '${String.fromCharCode(b)}')"`);
      i += run;
      continue;
    }
    if (b === 0x27 || b === 0x5c) quoted += `\\${String.fromCharCode(b)}`;
    else if (b >= 0x20 && b < 0x7f) quoted += String.fromCharCode(b);
    else quoted += `\\x${b.toString(16).padStart(2, '0')}`;
    i++;
  }
  flush();
  return out.join('') || "''";
}

/** The body as a curl argument: inline when short, else from a file written next to the test run. */
function bodyArgument(body: Buffer): string {
  const inline = shellBytes(body);
  if (inline.length <= 4_000) return inline;
  const file = join(tmpdir(), `fuzz-body-${createHash('sha1').update(body).digest('hex').slice(0, 12)}.bin`);
  writeFileSync(file, body);
  return `@${file}`;
}

/** A curl command that sends the same bytes (target as is, headers, body). */
export function toCurl(baseUrl: string, request: RawRequest): string {
  const parts = ['curl -sS -i --path-as-is', `-X ${request.method}`];
  parts.push(shellBytes(Buffer.from(baseUrl + request.target, 'latin1')));
  for (const [name, value] of request.headers)
    parts.push(`-H ${shellBytes(Buffer.from(`${name}: ${value}`, 'latin1'))}`);
  if (request.body !== undefined) parts.push(`--data-binary ${bodyArgument(request.body)}`);
  return parts.join(' ');
}

/**
 * The JSON text of `body` whose top-level field `field` is a string of exactly the bytes given,
 * which need not be UTF-8 (what a client that sends Latin-1 or garbage puts on the wire).
 */
export function jsonWithRawString(body: object, field: string, bytes: Buffer): Buffer {
  const marker = '\u0000raw\u0000';
  const [before, after] = JSON.stringify({ ...body, [field]: marker }).split(JSON.stringify(marker));
  return Buffer.concat([Buffer.from(`${before}"`), bytes, Buffer.from(`"${after}`)]);
}
