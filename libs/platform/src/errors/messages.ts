import type { FieldError } from './problem';

/**
 * Localised titles and details of problem codes, and messages of errors[] entries. Each bounded
 * context registers its own at module load, the platform its catalog (problem-messages.ts,
 * field-messages.ts).
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
