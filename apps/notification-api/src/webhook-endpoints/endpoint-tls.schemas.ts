import { z } from 'zod';
import { freeText } from '@fincore/platform';
import { readClientTls } from '@fincore/webhooks';

const pem = (max: number) => freeText({ max, multiline: true });

/** Read as the notifier will present it; the answer keeps the material with what may be shown of it. */
export const ClientTlsRequest = z
  .object({
    clientCertificate: pem(16_384).describe('PEM certificate the notifier presents to the receiver'),
    clientKey: pem(16_384).describe('Its unencrypted PEM private key; sealed at rest, never shown again'),
    caCertificates: pem(65_536)
      .optional()
      .describe("PEM certificates that sign the receiver's server certificate; omitted: the system's CAs"),
  })
  .strict()
  .transform((material, ctx) => {
    const reading = readClientTls(material);
    if (reading.ok) return { material, summary: reading.summary };
    ctx.addIssue({ code: 'custom', path: [reading.field], message: reading.message });
    return z.NEVER;
  })
  // Inline, not a component: OpenAPI 3.0 needs the type beside `nullable`, which a reference would lose.
  .meta({ description: 'Mutual TLS: the client certificate every attempt presents' });

export const ClientTlsResponse = z
  .object({
    clientCertificate: z.object({
      subject: z.string(),
      issuer: z.string(),
      fingerprint256: z.string().describe('SHA-256 of the certificate, colon-separated hex'),
      validFrom: z.string(),
      validTo: z.string(),
    }),
    hasClientKey: z.boolean().describe('Always true: the key is kept sealed and never shown'),
    caCertificates: z
      .number()
      .int()
      .describe("How many CA certificates replace the system's for this endpoint; 0: the system's"),
  })
  .meta({ description: 'What may be shown of the mutual TLS material' });

export type ClientTlsResponse = z.infer<typeof ClientTlsResponse>;
