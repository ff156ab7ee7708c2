import type { ApiResponse } from './http';
import type { RawResponse } from './raw-http';

/**
 * An error answer as every app renders it: the status, `application/problem+json`, the stable
 * `code` (and its `type` URN) when given, a title, and the request id of the response header.
 */
export function expectProblem(r: ApiResponse, status: number, code?: string): void {
  expect(answerOf(r)).toEqual(problemAnswer(r, status, code));
}

/** An answer as one value (status, media type, body), to compare whole with the outcomes allowed. */
export function answerOf(r: ApiResponse): { status: number; contentType: string | null; body: unknown } {
  return { status: r.status, contentType: r.headers.get('content-type'), body: r.body };
}

/** What `expectProblem` demands, as a value to compare `answerOf(r)` with. */
export function problemAnswer(r: ApiResponse, status: number, code?: string) {
  return {
    status,
    contentType: expect.stringMatching(/^application\/problem\+json/),
    body: expect.objectContaining({
      status,
      ...(code ? { code, type: `urn:fincore:problem:${code}` } : {}),
      title: expect.any(String),
      requestId: r.headers.get('x-request-id'),
    }),
  };
}

/** The problem body without what differs per request, to compare answers that must not differ. */
export function stableProblem(body: Record<string, unknown>): Record<string, unknown> {
  const { requestId: _r, instance: _i, ...rest } = body;
  return rest;
}

/** `expectProblem` for an answer read off a raw socket (`sendRaw`). */
export function expectRawProblem(r: RawResponse, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(r.json).toMatchObject({ status, code, type: `urn:fincore:problem:${code}` });
  expect(r.json).toMatchObject({ title: expect.any(String), requestId: r.headers['x-request-id'] });
}
