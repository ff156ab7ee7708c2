import { registerMessages } from './messages';

/** Titles and details of the platform's own problem codes. */
registerMessages({
  bad_request: {
    title: { en: 'Bad request', de: 'Ungültige Anfrage' },
    detail: { en: '{reason}', de: '{reason}' },
  },
  validation_failed: {
    title: { en: 'The request is not valid', de: 'Die Anfrage ist ungültig' },
    detail: {
      en: 'One or more fields are missing or invalid; see errors.',
      de: 'Ein oder mehrere Felder fehlen oder sind ungültig; siehe errors.',
    },
  },
  malformed_json: {
    title: { en: 'Malformed JSON body', de: 'Fehlerhafter JSON-Inhalt' },
    detail: {
      en: 'The request body is not valid JSON.',
      de: 'Der Inhalt der Anfrage ist kein gültiges JSON.',
    },
  },
  json_too_deep: {
    title: { en: 'JSON body nested too deeply', de: 'JSON-Inhalt zu tief verschachtelt' },
    detail: {
      en: 'The request body nests arrays and objects deeper than {limit} levels.',
      de: 'Der Inhalt der Anfrage verschachtelt Arrays und Objekte tiefer als {limit} Ebenen.',
    },
  },
  payload_too_large: {
    title: { en: 'Request body too large', de: 'Anfrageinhalt zu groß' },
    detail: {
      en: 'The request body exceeds the limit of {limit} bytes.',
      de: 'Der Inhalt der Anfrage überschreitet die Grenze von {limit} Bytes.',
    },
  },
  unsupported_media_type: {
    title: { en: 'Unsupported media type', de: 'Nicht unterstützter Medientyp' },
    detail: {
      en: 'Send the request body as application/json.',
      de: 'Senden Sie den Inhalt der Anfrage als application/json.',
    },
  },
  malformed_url: {
    title: { en: 'Malformed URL', de: 'Fehlerhafte URL' },
    detail: {
      en: 'The path is not valid: check its percent-encoding (%XX with two hexadecimal digits, valid UTF-8).',
      de: 'Der Pfad ist ungültig: prüfen Sie die Prozent-Kodierung (%XX mit zwei Hexadezimalziffern, gültiges UTF-8).',
    },
  },
  uri_too_long: {
    title: { en: 'URI too long', de: 'URI zu lang' },
    detail: {
      en: 'A path segment is longer than {limit} characters; no identifier is that long.',
      de: 'Ein Pfadabschnitt ist länger als {limit} Zeichen; kein Bezeichner ist so lang.',
    },
  },
  headers_too_large: {
    title: { en: 'Request header fields too large', de: 'Anfrage-Header zu groß' },
    detail: {
      en: 'The request line and headers together exceed the limit of {limit} bytes.',
      de: 'Anfragezeile und Header überschreiten zusammen die Grenze von {limit} Bytes.',
    },
  },
  malformed_request: {
    title: { en: 'Malformed HTTP request', de: 'Fehlerhafte HTTP-Anfrage' },
    detail: {
      en: 'The request is not valid HTTP/1.1 and was not processed.',
      de: 'Die Anfrage ist kein gültiges HTTP/1.1 und wurde nicht verarbeitet.',
    },
  },
  request_timeout: {
    title: { en: 'Request timeout', de: 'Zeitüberschreitung der Anfrage' },
    detail: {
      en: 'The request was not received completely in time.',
      de: 'Die Anfrage wurde nicht rechtzeitig vollständig empfangen.',
    },
  },
  invalid_cursor: {
    title: { en: 'Invalid cursor', de: 'Ungültiger Cursor' },
    detail: {
      en: 'Pass the nextCursor of a previous page unchanged.',
      de: 'Übergeben Sie den nextCursor einer vorherigen Seite unverändert.',
    },
  },
  route_not_found: {
    title: { en: 'Not found', de: 'Nicht gefunden' },
    detail: { en: 'No route matches {method} {path}.', de: 'Keine Route passt zu {method} {path}.' },
  },
  not_found: {
    title: { en: 'Not found', de: 'Nicht gefunden' },
    detail: {
      en: 'The requested resource does not exist.',
      de: 'Die angeforderte Ressource existiert nicht.',
    },
  },
  method_not_allowed: {
    title: { en: 'Method not allowed', de: 'Methode nicht erlaubt' },
  },
  unauthenticated: {
    title: { en: 'Authentication required', de: 'Authentifizierung erforderlich' },
    detail: {
      en: 'Send a valid, unrevoked API token in the x-auth-token header.',
      de: 'Senden Sie ein gültiges, nicht widerrufenes API-Token im Header x-auth-token.',
    },
  },
  insufficient_scope: {
    title: { en: 'Insufficient scope', de: 'Unzureichende Berechtigung' },
    detail: {
      en: 'This operation needs the scope(s) {required}.',
      de: 'Dieser Vorgang erfordert die Berechtigung(en) {required}.',
    },
  },
  tenant_mismatch: {
    title: { en: 'Tenant mismatch', de: 'Mandant stimmt nicht überein' },
    detail: {
      en: 'The x-tenant-code header does not match the tenant of the API token.',
      de: 'Der Header x-tenant-code passt nicht zum Mandanten des API-Tokens.',
    },
  },
  tenant_header_required: {
    title: { en: 'Tenant header required', de: 'Mandanten-Header erforderlich' },
    detail: {
      en: 'This operation requires the x-tenant-code header.',
      de: 'Dieser Vorgang erfordert den Header x-tenant-code.',
    },
  },
  rate_limited: {
    title: { en: 'Too many requests', de: 'Zu viele Anfragen' },
    detail: {
      en: 'Rate limit exceeded; retry after {retryAfter} seconds.',
      de: 'Anfragelimit überschritten; erneut versuchen in {retryAfter} Sekunden.',
    },
  },
  conflict: {
    title: { en: 'Conflict', de: 'Konflikt' },
  },
  idempotency_key_invalid: {
    title: { en: 'Invalid Idempotency-Key', de: 'Ungültiger Idempotency-Key' },
    detail: {
      en: 'The Idempotency-Key header must be 1 to {max} printable ASCII characters.',
      de: 'Der Header Idempotency-Key muss aus 1 bis {max} druckbaren ASCII-Zeichen bestehen.',
    },
  },
  idempotency_key_in_flight: {
    title: { en: 'Request still in progress', de: 'Anfrage wird noch bearbeitet' },
    detail: {
      en: 'A request with this Idempotency-Key is still running; retry after {retryAfter} seconds.',
      de: 'Eine Anfrage mit diesem Idempotency-Key läuft noch; erneut versuchen in {retryAfter} Sekunden.',
    },
  },
  idempotency_key_reused: {
    title: { en: 'Idempotency-Key reused', de: 'Idempotency-Key wiederverwendet' },
    detail: {
      en: 'This Idempotency-Key was used for another request; use a new key for a new request.',
      de: 'Dieser Idempotency-Key wurde für eine andere Anfrage verwendet; verwenden Sie für eine neue Anfrage einen neuen Schlüssel.',
    },
  },
  service_unavailable: {
    title: { en: 'Service unavailable', de: 'Dienst nicht verfügbar' },
    detail: {
      en: 'A dependency of the service is unavailable; retry later.',
      de: 'Eine Abhängigkeit des Dienstes ist nicht verfügbar; später erneut versuchen.',
    },
  },
  dependency_unavailable: {
    title: { en: 'Temporarily unavailable', de: 'Vorübergehend nicht verfügbar' },
    detail: {
      en: 'A database or cache the service depends on is not answering; retry after {retryAfter} seconds.',
      de: 'Eine Datenbank oder ein Cache, von dem der Dienst abhängt, antwortet nicht; erneut versuchen in {retryAfter} Sekunden.',
    },
  },
  internal_error: {
    title: { en: 'Internal server error', de: 'Interner Serverfehler' },
    detail: {
      en: 'An unexpected error occurred; quote the request id when reporting it.',
      de: 'Ein unerwarteter Fehler ist aufgetreten; nennen Sie die Request-ID, wenn Sie ihn melden.',
    },
  },
});
