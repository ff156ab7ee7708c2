import { registerFieldMessages } from '../errors/messages';
import { defineProblems } from '../errors/problem-catalog';

// Refusals of bodies whose bytes would have to be rewritten to be read (request-encoding.ts).
const problems = defineProblems({
  invalid_encoding: {
    status: 400,
    title: { en: 'Body is not valid UTF-8', de: 'Inhalt ist kein gültiges UTF-8' },
    detail: {
      en: 'The request body holds bytes that are not UTF-8; see errors for the field. Send JSON encoded as UTF-8.',
      de: 'Der Inhalt der Anfrage enthält Bytes, die kein UTF-8 sind; das Feld steht in errors. Senden Sie JSON in UTF-8.',
    },
  },
  unsupported_charset: {
    status: 415,
    title: { en: 'Unsupported charset', de: 'Nicht unterstützter Zeichensatz' },
    detail: {
      en: 'Send the request body as application/json in UTF-8: charset=utf-8, or no charset.',
      de: 'Senden Sie den Inhalt der Anfrage als application/json in UTF-8: charset=utf-8 oder ohne charset.',
    },
  },
  unsupported_content_encoding: {
    status: 415,
    title: { en: 'Unsupported content encoding', de: 'Nicht unterstützte Inhaltskodierung' },
    detail: {
      en: 'Send the request body uncompressed, without Content-Encoding (or with identity).',
      de: 'Senden Sie den Inhalt der Anfrage unkomprimiert, ohne Content-Encoding (oder mit identity).',
    },
  },
});

registerFieldMessages({
  'must be valid UTF-8': { de: 'muss gültiges UTF-8 sein' },
});

/** Bytes that are not UTF-8, in the field named (errors[]). */
export const invalidEncoding = (field: string) =>
  problems.invalid_encoding({}, { errors: [{ field, message: 'must be valid UTF-8' }] });
export const unsupportedCharset = () => problems.unsupported_charset();
/** The answer names the one coding taken (RFC 9110, 15.5.16). */
export const unsupportedContentEncoding = () =>
  problems.unsupported_content_encoding({}, { headers: { 'accept-encoding': 'identity' } });
