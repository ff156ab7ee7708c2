import { testCertificates } from '@test/support/tls-certificates';
import { clientTlsOptions, readClientTls } from './client-tls';

describe('readClientTls', () => {
  const { ca, client, stranger } = testCertificates();
  const sut = readClientTls;

  it('summarises a certificate with its matching key, never the key', () => {
    const reading = sut({ clientCertificate: client.cert, clientKey: client.key, caCertificates: ca });

    expect(reading).toEqual({
      ok: true,
      summary: {
        subject: 'CN=fincore notifier',
        issuer: 'CN=fincore test CA',
        fingerprint256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
        validFrom: expect.any(String),
        validTo: expect.any(String),
        caCertificates: 1,
      },
    });
    expect(JSON.stringify(reading)).not.toContain('PRIVATE KEY');
  });

  it('names the field that is wrong', () => {
    const good = { clientCertificate: client.cert, clientKey: client.key };
    expect(sut({ ...good, clientCertificate: 'not a certificate' })).toMatchObject({
      field: 'clientCertificate',
    });
    expect(sut({ ...good, clientCertificate: client.cert + ca })).toMatchObject({
      field: 'clientCertificate',
    });
    expect(sut({ ...good, clientKey: client.cert })).toMatchObject({ field: 'clientKey' });
    expect(sut({ ...good, clientKey: stranger.key })).toEqual({
      ok: false,
      field: 'clientKey',
      message: 'does not match the client certificate',
    });
    expect(
      sut({ ...good, caCertificates: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' }),
    ).toMatchObject({
      field: 'caCertificates',
    });
  });
});

describe('clientTlsOptions', () => {
  it("gives got's https options, the system's CAs unless some were given", () => {
    const sut = clientTlsOptions;
    expect(sut(JSON.stringify({ clientCertificate: 'C', clientKey: 'K' }))).toEqual({
      certificate: 'C',
      key: 'K',
    });
    expect(sut(JSON.stringify({ clientCertificate: 'C', clientKey: 'K', caCertificates: 'A' }))).toEqual({
      certificate: 'C',
      key: 'K',
      certificateAuthority: 'A',
    });
  });
});
