import { emptyTls, filterText, readFilter as sut, tlsField } from './endpoint-settings';

describe('readFilter', () => {
  it('reads empty text as no filter and JSON as the filter, whatever it says', () => {
    expect(sut('  ')).toEqual({ ok: true, filter: null });
    expect(sut('{"path": "type", "equals": "X"}')).toEqual({
      ok: true,
      filter: { path: 'type', equals: 'X' },
    });
    expect(sut('"not a filter"')).toEqual({ ok: true, filter: 'not a filter' });
  });
  it('names what is not JSON', () => {
    expect(sut('{path:')).toEqual({ ok: false, detail: expect.any(String) });
  });
  it('writes a stored filter back as the text it reads', () => {
    const filter = { any: [{ path: 'type', equals: 'X' }] };
    expect(sut(filterText(filter))).toEqual({ ok: true, filter });
    expect(filterText(null)).toBe('');
  });
});

describe('tlsField', () => {
  it('keeps what is stored by leaving tls out, and removes it with null', () => {
    expect(tlsField(emptyTls('keep'))).toEqual({});
    expect(tlsField(emptyTls('none'))).toEqual({ tls: null });
  });
  it('sends new material, the CA certificates only when given', () => {
    const draft = { ...emptyTls('new'), clientCertificate: 'CERT', clientKey: 'KEY' };
    expect(tlsField(draft)).toEqual({ tls: { clientCertificate: 'CERT', clientKey: 'KEY' } });
    expect(tlsField({ ...draft, caCertificates: 'CA' }).tls).toMatchObject({ caCertificates: 'CA' });
  });
});
