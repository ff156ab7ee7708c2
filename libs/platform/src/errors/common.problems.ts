import { defineProblems } from './problem-catalog';

const problems = defineProblems({
  bad_request: {
    status: 400,
    title: { en: 'Bad request', de: 'Ungültige Anfrage' },
    detail: { en: '{reason}', de: '{reason}' },
  },
  malformed_json: {
    status: 400,
    title: { en: 'Malformed JSON body', de: 'Fehlerhafter JSON-Inhalt' },
    detail: {
      en: 'The request body is not valid JSON.',
      de: 'Der Inhalt der Anfrage ist kein gültiges JSON.',
    },
  },
  payload_too_large: {
    status: 413,
    title: { en: 'Request body too large', de: 'Anfrageinhalt zu groß' },
    detail: {
      en: 'The request body exceeds the limit of {limit} bytes.',
      de: 'Der Inhalt der Anfrage überschreitet die Grenze von {limit} Bytes.',
    },
  },
  unsupported_media_type: {
    status: 415,
    title: { en: 'Unsupported media type', de: 'Nicht unterstützter Medientyp' },
    detail: {
      en: 'Send the request body as application/json.',
      de: 'Senden Sie den Inhalt der Anfrage als application/json.',
    },
  },
  malformed_url: {
    status: 400,
    title: { en: 'Malformed URL', de: 'Fehlerhafte URL' },
    detail: {
      en: 'The path is not valid: check its percent-encoding (%XX with two hexadecimal digits, valid UTF-8).',
      de: 'Der Pfad ist ungültig: prüfen Sie die Prozent-Kodierung (%XX mit zwei Hexadezimalziffern, gültiges UTF-8).',
    },
  },
  uri_too_long: {
    status: 414,
    title: { en: 'URI too long', de: 'URI zu lang' },
    detail: {
      en: 'A path segment is longer than {limit} characters; no identifier is that long.',
      de: 'Ein Pfadabschnitt ist länger als {limit} Zeichen; kein Bezeichner ist so lang.',
    },
  },
  headers_too_large: {
    status: 431,
    title: { en: 'Request header fields too large', de: 'Anfrage-Header zu groß' },
    detail: {
      en: 'The request line and headers together exceed the limit of {limit} bytes.',
      de: 'Anfragezeile und Header überschreiten zusammen die Grenze von {limit} Bytes.',
    },
  },
  malformed_request: {
    status: 400,
    title: { en: 'Malformed HTTP request', de: 'Fehlerhafte HTTP-Anfrage' },
    detail: {
      en: 'The request is not valid HTTP/1.1 and was not processed.',
      de: 'Die Anfrage ist kein gültiges HTTP/1.1 und wurde nicht verarbeitet.',
    },
  },
  request_timeout: {
    status: 408,
    title: { en: 'Request timeout', de: 'Zeitüberschreitung der Anfrage' },
    detail: {
      en: 'The request was not received completely in time.',
      de: 'Die Anfrage wurde nicht rechtzeitig vollständig empfangen.',
    },
  },
  route_not_found: {
    status: 404,
    title: { en: 'Not found', de: 'Nicht gefunden' },
    detail: { en: 'No route matches {method} {path}.', de: 'Keine Route passt zu {method} {path}.' },
  },
  not_found: {
    status: 404,
    title: { en: 'Not found', de: 'Nicht gefunden' },
    detail: {
      en: 'The requested resource does not exist.',
      de: 'Die angeforderte Ressource existiert nicht.',
    },
  },
  method_not_allowed: {
    status: 405,
    title: { en: 'Method not allowed', de: 'Methode nicht erlaubt' },
  },
  conflict: {
    status: 409,
    title: { en: 'Conflict', de: 'Konflikt' },
  },
  service_unavailable: {
    status: 503,
    title: { en: 'Service unavailable', de: 'Dienst nicht verfügbar' },
    detail: {
      en: 'A dependency of the service is unavailable; retry later.',
      de: 'Eine Abhängigkeit des Dienstes ist nicht verfügbar; später erneut versuchen.',
    },
  },
  dependency_unavailable: {
    status: 503,
    title: { en: 'Temporarily unavailable', de: 'Vorübergehend nicht verfügbar' },
    detail: {
      en: 'A database or cache the service depends on is not answering; retry after {retryAfter} seconds.',
      de: 'Eine Datenbank oder ein Cache, von dem der Dienst abhängt, antwortet nicht; erneut versuchen in {retryAfter} Sekunden.',
    },
  },
  internal_error: {
    status: 500,
    title: { en: 'Internal server error', de: 'Interner Serverfehler' },
    detail: {
      en: 'An unexpected error occurred; quote the request id when reporting it.',
      de: 'Ein unerwarteter Fehler ist aufgetreten; nennen Sie die Request-ID, wenn Sie ihn melden.',
    },
  },
});

export const malformedJson = () => problems.malformed_json();
export const payloadTooLarge = (limit: number) => problems.payload_too_large({ limit });
export const unsupportedMediaType = () => problems.unsupported_media_type();
export const malformedUrl = () => problems.malformed_url();
export const uriTooLong = (limit: number) => problems.uri_too_long({ limit });
export const headersTooLarge = (limit: number) => problems.headers_too_large({ limit });
export const malformedRequest = () => problems.malformed_request();
export const requestTimeout = () => problems.request_timeout();
export const routeNotFound = (method: string | undefined, path: string) =>
  problems.route_not_found({ method, path });
export const dependencyUnavailable = (retryAfter: number) =>
  problems.dependency_unavailable({}, { retryAfter });
export const internalError = () => problems.internal_error();
