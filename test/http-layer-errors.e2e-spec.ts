import { connect } from 'node:net';
import { CardApiApp } from '../apps/card-api/src/app.definition';
import { RunningApp, TestStack } from './support/stack';

// What the router or Node's HTTP parser refuses never reaches Nest; it is answered with the same
// problem+json as everything else. fetch cannot send most of these, so they go over a raw socket.

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, any>;
}

/**
 * Writes the bytes on a new connection and reads the answer until the server ends the connection
 * (every request says `connection: close`). Writing does not end our side: the server would
 * abort a request still being handled when the caller hangs up.
 */
function rawRequest(app: RunningApp, bytes: Buffer | string): Promise<RawAnswer> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      const body = rest.join('\r\n\r\n');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body ? JSON.parse(body) : {} });
    });
    socket.write(bytes);
  });
}

const get = (target: string | Buffer, headers: string[] = []) =>
  Buffer.concat([
    Buffer.from('GET '),
    Buffer.isBuffer(target) ? target : Buffer.from(target),
    Buffer.from([' HTTP/1.1', 'host: localhost', 'connection: close', ...headers, '', ''].join('\r\n')),
  ]);

function expectRawProblem(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ status, code, type: `urn:fincore:problem:${code}` });
  expect(answer.body.title).toEqual(expect.any(String));
  expect(answer.body.requestId).toBe(answer.headers['x-request-id']);
}

describe('HTTP-layer errors as problem+json', () => {
  let stack: TestStack;
  let sut: RunningApp;
  beforeAll(async () => {
    stack = await TestStack.create();
    sut = await stack.startApp(CardApiApp);
  });
  afterAll(() => stack.close());

  it('answers bad percent-encoding in the path with 400 malformed_url, in the caller’s language', async () => {
    const answer = await rawRequest(sut, get('/api/v1/cards/%E0%A4%A', ['accept-language: de']));
    expectRawProblem(answer, 400, 'malformed_url');
    expect(answer.body.title).toBe('Fehlerhafte URL');
    expect(answer.headers['content-language']).toBe('de');
  });

  it('answers an overlong UTF-8 sequence in the path with 400 malformed_url', async () => {
    expectRawProblem(await rawRequest(sut, get('/api/v1/usage-groups/%C0%80')), 400, 'malformed_url');
  });

  it('answers raw bytes that are no URL in the path as problem+json', async () => {
    const answer = await rawRequest(sut, get(Buffer.from([0x2f, 0x61, 0x70, 0x69, 0x2f, 0xff, 0xfe, 0x00])));
    expectRawProblem(answer, 400, 'malformed_request');
    expect(answer.headers.connection).toBe('close');
  });

  it('answers raw bytes in a path parameter with 400 malformed_request', async () => {
    const answer = await rawRequest(sut, get(Buffer.from('/api/v1/cards/CARD-\xff\xfe', 'latin1')));
    expectRawProblem(answer, 400, 'malformed_request');
  });

  it('answers a percent-encoded NUL in a path parameter with 400 validation_failed', async () => {
    const { token } = await stack.createTenant();
    const answer = await rawRequest(sut, get('/api/v1/cards/CARD-%00', [`x-auth-token: ${token}`]));
    expectRawProblem(answer, 400, 'validation_failed');
  });

  it('answers bad percent-encoding in the query string with 400 validation_failed', async () => {
    const { token } = await stack.createTenant();
    const target = '/api/v1/cards/CARD-1/settings/history?limit=%E0%A4%A&beforeVersion=%FF';
    const answer = await rawRequest(sut, get(target, [`x-auth-token: ${token}`]));
    expectRawProblem(answer, 400, 'validation_failed');
  });

  it('answers a path parameter of 2000 characters with 414 uri_too_long', async () => {
    const answer = await rawRequest(sut, get(`/api/v1/cards/${'C'.repeat(2000)}`));
    expectRawProblem(answer, 414, 'uri_too_long');
  });

  it('answers a URL of 100 KB with 431 headers_too_large and closes the connection', async () => {
    const answer = await rawRequest(sut, get(`/api/v1/cards?${'q'.repeat(100 * 1024)}`));
    expectRawProblem(answer, 431, 'headers_too_large');
    expect(answer.headers.connection).toBe('close');
    expect(answer.body.detail).toMatch(/\d+ bytes/);
  });

  it('answers a header of 100 KB with 431 headers_too_large', async () => {
    const answer = await rawRequest(sut, get('/health/live', [`x-filler: ${'h'.repeat(100 * 1024)}`]));
    expectRawProblem(answer, 431, 'headers_too_large');
  });

  it('answers a request line that is no HTTP with 400 malformed_request', async () => {
    const answer = await rawRequest(sut, 'HELLO THERE\r\n\r\n');
    expectRawProblem(answer, 400, 'malformed_request');
  });

  it('answers an unknown route with 404 route_not_found', async () => {
    expectRawProblem(await rawRequest(sut, get('/api/v1/no-such-thing')), 404, 'route_not_found');
  });

  it('keeps serving after all of that', async () => {
    expect((await fetch(`${sut.url}/health/live`)).status).toBe(200);
  });
});
