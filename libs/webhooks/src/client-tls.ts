import { createPrivateKey, KeyObject, X509Certificate } from 'node:crypto';

/** What a tenant gives for mutual TLS: PEM strings. */
export interface ClientTlsInput {
  clientCertificate: string;
  clientKey: string;
  /** CA certificates that sign the receiver's server certificate; omitted: the system's. */
  caCertificates?: string;
}

/** What may be shown of the material: never the key, and of the certificate what identifies it. */
export interface ClientTlsSummary {
  subject: string;
  issuer: string;
  fingerprint256: string;
  validFrom: string;
  validTo: string;
  /** How many CA certificates replace the system's for this endpoint; 0: the system's. */
  caCertificates: number;
}

export type ClientTlsField = keyof ClientTlsInput;

/** The material read, or the field that is wrong and why. */
export type ClientTlsReading =
  { ok: true; summary: ClientTlsSummary } | { ok: false; field: ClientTlsField; message: string };

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Reads PEM material as the notifier will present it: one certificate, a private key that matches
 * it, and optionally one or more CA certificates.
 */
export function readClientTls(input: ClientTlsInput): ClientTlsReading {
  const certificate = onlyCertificate(input.clientCertificate);
  if (!certificate)
    return {
      ok: false,
      field: 'clientCertificate',
      message: 'must be one PEM certificate (BEGIN CERTIFICATE)',
    };
  let key: KeyObject;
  try {
    key = createPrivateKey(input.clientKey);
  } catch {
    return { ok: false, field: 'clientKey', message: 'must be an unencrypted PEM private key' };
  }
  if (!certificate.checkPrivateKey(key))
    return { ok: false, field: 'clientKey', message: 'does not match the client certificate' };
  const authorities = input.caCertificates === undefined ? [] : certificatesIn(input.caCertificates);
  if (!authorities)
    return { ok: false, field: 'caCertificates', message: 'must be one or more PEM certificates' };
  return {
    ok: true,
    summary: {
      subject: certificate.subject,
      issuer: certificate.issuer,
      fingerprint256: certificate.fingerprint256,
      validFrom: new Date(certificate.validFrom).toISOString(),
      validTo: new Date(certificate.validTo).toISOString(),
      caCertificates: authorities.length,
    },
  };
}

function onlyCertificate(pem: string): X509Certificate | undefined {
  const all = certificatesIn(pem);
  return all?.length === 1 ? all[0] : undefined;
}

/** Every certificate of a PEM bundle; undefined when there is none or one does not parse. */
function certificatesIn(pem: string): X509Certificate[] | undefined {
  const blocks = pem.match(CERTIFICATE_BLOCK);
  if (!blocks) return undefined;
  try {
    return blocks.map((block) => new X509Certificate(block));
  } catch {
    return undefined;
  }
}

/** got's `https` options presenting the material (kept sealed as this JSON). */
export function clientTlsOptions(json: string): {
  certificate: string;
  key: string;
  certificateAuthority?: string;
} {
  const material = JSON.parse(json) as ClientTlsInput;
  return {
    certificate: material.clientCertificate,
    key: material.clientKey,
    ...(material.caCertificates ? { certificateAuthority: material.caCertificates } : {}),
  };
}
