import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KeyAndCertificate {
  key: string;
  cert: string;
}

/** A test CA, a server certificate for 127.0.0.1 and a client certificate it signed, and a stranger's. */
export interface TestCertificates {
  ca: string;
  server: KeyAndCertificate;
  client: KeyAndCertificate;
  /** A client certificate signed by another CA, which the receiver does not trust. */
  stranger: KeyAndCertificate;
}

let made: TestCertificates | undefined;

/** Made once per test process with the openssl CLI (P-256 keys, valid two days). */
export function testCertificates(): TestCertificates {
  if (made) return made;
  const dir = mkdtempSync(join(tmpdir(), 'fincore-tls-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  const selfSigned = (name: string, cn: string) =>
    openssl(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.crt`,
      '-days',
      '2',
      '-subj',
      `/CN=${cn}`,
    );
  const signed = (name: string, cn: string, extensions: string, ca = 'ca') => {
    writeFileSync(file(`${name}.ext`), extensions);
    openssl('req', '-new', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`);
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.crt`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    );
  };
  try {
    selfSigned('ca', 'fincore test CA');
    selfSigned('other-ca', 'another CA');
    signed('server', '127.0.0.1', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
    signed('client', 'fincore notifier', 'extendedKeyUsage=clientAuth\n');
    signed('stranger', 'fincore notifier', 'extendedKeyUsage=clientAuth\n', 'other-ca');
    const pair = (name: string) => ({
      key: readFileSync(file(`${name}.key`), 'utf8'),
      cert: readFileSync(file(`${name}.crt`), 'utf8'),
    });
    made = {
      ca: readFileSync(file('ca.crt'), 'utf8'),
      server: pair('server'),
      client: pair('client'),
      stranger: pair('stranger'),
    };
    return made;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
