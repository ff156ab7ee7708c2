import type { FieldError } from './problem';

/**
 * Localised titles and details of problem codes, and messages of errors[] entries. Each bounded
 * context registers its own (at module load); the platform's are registered below.
 */
export const SUPPORTED_LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

export interface MessageDefinition {
  title: Record<Language, string>;
  /** Template; `{name}` is replaced by the problem's parameter of that name. */
  detail?: Record<Language, string>;
}

const registry = new Map<string, MessageDefinition>();

export function registerMessages(definitions: Record<string, MessageDefinition>): void {
  for (const [code, def] of Object.entries(definitions)) {
    const existing = registry.get(code);
    if (existing && existing !== def && JSON.stringify(existing) !== JSON.stringify(def)) {
      throw new Error(`Problem code ${code} is registered twice with different messages`);
    }
    registry.set(code, def);
  }
}

/** Picks the first supported language of an Accept-Language header, honouring q-values. */
export function negotiateLanguage(header: string | string[] | undefined): Language {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return 'en';
  const ranked = value
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return {
        lang: tag.trim().toLowerCase().split('-')[0],
        weight: Number.isFinite(weight) ? weight : 0,
        index,
      };
    })
    .filter((r) => r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const r of ranked) {
    if ((SUPPORTED_LANGUAGES as readonly string[]).includes(r.lang)) return r.lang as Language;
  }
  return 'en';
}

/**
 * Messages of errors[] entries in the languages other than English, by key: a validation issue's
 * kind (`zod.too_small.string`, see toFieldErrors), or an English message itself, so that a fixed
 * English text (a schema's own message, a service's) can be given its translations.
 */
export type FieldMessage = Record<Exclude<Language, 'en'>, string>;
const fieldMessages = new Map<string, FieldMessage>();

export function registerFieldMessages(definitions: Record<string, FieldMessage>): void {
  for (const [key, def] of Object.entries(definitions)) {
    const existing = fieldMessages.get(key);
    if (existing && JSON.stringify(existing) !== JSON.stringify(def)) {
      throw new Error(`Field message "${key}" is registered twice with different texts`);
    }
    fieldMessages.set(key, def);
  }
}

/** The entry as sent: its message in the language, without the keys and parameters behind it. */
export function localiseFieldError(error: FieldError, language: Language): FieldError {
  const { field, code } = error;
  let message = error.message;
  if (language !== 'en') {
    const keys = [error.message, ...(error.messageKeys ?? [])];
    const found = keys.map((key) => fieldMessages.get(key)).find((def) => def !== undefined);
    if (found) message = interpolate(found[language], error.messageParams ?? {});
  }
  return { field, message, ...(code ? { code } : {}) };
}

function interpolate(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) return whole;
    return Array.isArray(value) ? value.join(', ') : String(value);
  });
}

export function localise(
  code: string,
  language: Language,
  params: Record<string, unknown> = {},
): { title: string; detail?: string } {
  const def = registry.get(code) ?? registry.get('internal_error')!;
  const detail = def.detail ? interpolate(def.detail[language] ?? def.detail.en, params) : undefined;
  return { title: def.title[language] ?? def.title.en, detail };
}

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

registerFieldMessages({
  // Kinds of validation issue (toFieldErrors), the most specific first.
  'zod.required': { de: 'fehlt' },
  'zod.invalid_type': { de: 'hat den falschen Typ: erwartet {expected}' },
  'zod.invalid_type.string': { de: 'muss eine Zeichenkette sein' },
  'zod.invalid_type.number': { de: 'muss eine Zahl sein' },
  'zod.invalid_type.int': { de: 'muss eine ganze Zahl sein' },
  'zod.invalid_type.boolean': { de: 'muss true oder false sein' },
  'zod.invalid_type.object': { de: 'muss ein Objekt sein' },
  'zod.invalid_type.array': { de: 'muss eine Liste sein' },
  'zod.invalid_type.null': { de: 'muss null sein' },
  'zod.too_small': { de: 'ist zu klein: mindestens {minimum}' },
  'zod.too_small.string.nonempty': { de: 'darf nicht leer sein' },
  'zod.too_small.array.nonempty': { de: 'darf nicht leer sein' },
  'zod.too_small.string': { de: 'muss mindestens {minimum} Zeichen lang sein' },
  'zod.too_small.string.exact': { de: 'muss genau {minimum} Zeichen lang sein' },
  'zod.too_small.number': { de: 'muss mindestens {minimum} sein' },
  'zod.too_small.number.exclusive': { de: 'muss größer als {minimum} sein' },
  'zod.too_small.array': { de: 'muss mindestens {minimum} Einträge haben' },
  'zod.too_small.array.exact': { de: 'muss genau {minimum} Einträge haben' },
  'zod.too_big': { de: 'ist zu groß: höchstens {maximum}' },
  'zod.too_big.string': { de: 'darf höchstens {maximum} Zeichen lang sein' },
  'zod.too_big.string.exact': { de: 'muss genau {maximum} Zeichen lang sein' },
  'zod.too_big.number': { de: 'darf höchstens {maximum} sein' },
  'zod.too_big.number.exclusive': { de: 'muss kleiner als {maximum} sein' },
  'zod.too_big.array': { de: 'darf höchstens {maximum} Einträge haben' },
  'zod.too_big.array.exact': { de: 'muss genau {maximum} Einträge haben' },
  'zod.invalid_format': { de: 'hat nicht das erwartete Format' },
  'zod.invalid_format.date': { de: 'muss ein Datum der Form JJJJ-MM-TT sein, das es im Kalender gibt' },
  'zod.invalid_format.datetime': {
    de: 'muss ein Zeitpunkt nach ISO 8601 mit Zeitzone sein, z. B. 2026-03-15T10:00:00Z',
  },
  'zod.invalid_format.uuid': { de: 'muss eine UUID sein' },
  'zod.invalid_format.url': { de: 'muss eine URL sein' },
  'zod.invalid_format.email': { de: 'muss eine E-Mail-Adresse sein' },
  'zod.invalid_value': { de: 'muss einer dieser Werte sein: {values}' },
  'zod.unrecognized_keys': { de: 'unbekannte Felder: {keys}' },
  'zod.not_multiple_of': { de: 'muss ein Vielfaches von {divisor} sein' },
  'zod.invalid_union': { de: 'passt zu keiner der erlaubten Formen' },
  'zod.invalid_key': { de: 'enthält einen ungültigen Schlüssel' },
  'zod.invalid_element': { de: 'enthält einen ungültigen Eintrag' },
  'zod.custom': { de: 'ist ungültig' },
  // The platform's own English messages.
  required: { de: 'erforderlich' },
  'must not contain control characters': { de: 'darf keine Steuerzeichen enthalten' },
  'must not contain control characters other than tab and line breaks': {
    de: 'darf außer Tabulator und Zeilenumbrüchen keine Steuerzeichen enthalten',
  },
  'must be valid Unicode (no unpaired surrogates)': {
    de: 'muss gültiges Unicode sein (keine unpaarigen Surrogate)',
  },
  'must be a finite number': { de: 'muss eine endliche Zahl sein' },
  'an integer written in decimal digits': { de: 'eine ganze Zahl in Dezimalziffern' },
  'the year must be 0001 or later': { de: 'das Jahr muss 0001 oder später sein' },
});
