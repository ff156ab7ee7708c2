import { maxHeaderSize } from 'node:http';
import { clientErrorProblem } from './http-layer';
import { localise } from './messages';
import { MAX_PARAM_LENGTH, renderProblem } from './render';

const parserError = (code: string) => Object.assign(new Error(code), { code });

describe('clientErrorProblem', () => {
  const sut = clientErrorProblem;

  it('answers headers over the limit with 431 headers_too_large', () => {
    expect(sut(parserError('HPE_HEADER_OVERFLOW'))).toMatchObject({
      code: 'headers_too_large',
      status: 431,
      params: { limit: maxHeaderSize },
    });
  });

  it('answers a request not received in time with 408', () => {
    expect(sut(parserError('ERR_HTTP_REQUEST_TIMEOUT'))).toMatchObject({
      code: 'request_timeout',
      status: 408,
    });
  });

  it('answers anything else the parser refuses with 400 malformed_request', () => {
    expect(sut(parserError('HPE_INVALID_METHOD'))).toMatchObject({ code: 'malformed_request', status: 400 });
    expect(sut(parserError('HPE_INVALID_URL'))).toMatchObject({ code: 'malformed_request', status: 400 });
  });

  it('answers nothing on a connection that is gone', () => {
    expect(sut(parserError('ECONNRESET'))).toBeUndefined();
    expect(sut(parserError('EPIPE'))).toBeUndefined();
  });
});

describe('renderProblem of the router errors', () => {
  const req = { url: '/api/v1/cards/%E0%A4%A', headers: { 'accept-language': 'de' } };
  const fastifyError = (code: string, statusCode: number) =>
    Object.assign(new Error(code), { code, statusCode });

  it('answers bad percent-encoding with 400 malformed_url', () => {
    const sut = renderProblem(fastifyError('FST_ERR_BAD_URL', 400), req, 'r-1', 1024);
    expect(sut.status).toBe(400);
    expect(sut.body).toMatchObject({ code: 'malformed_url', title: 'Fehlerhafte URL', requestId: 'r-1' });
  });

  it('answers an over-long path parameter with 414 uri_too_long', () => {
    const sut = renderProblem(fastifyError('FST_ERR_MAX_PARAM_LENGTH', 414), req, 'r-2', 1024);
    expect(sut.status).toBe(414);
    expect(sut.body.code).toBe('uri_too_long');
    expect(sut.body.detail).toContain(String(MAX_PARAM_LENGTH));
  });

  it.each(['malformed_url', 'uri_too_long', 'headers_too_large', 'malformed_request', 'request_timeout'])(
    'has an English and a German title for %s',
    (code) => {
      expect(localise(code, 'en').title).not.toBe(localise('internal_error', 'en').title);
      expect(localise(code, 'de').title).not.toBe(localise(code, 'en').title);
    },
  );
});
