import { defineProblems } from '../errors/problem-catalog';

const problems = defineProblems({
  json_too_deep: {
    status: 400,
    title: { en: 'JSON body nested too deeply', de: 'JSON-Inhalt zu tief verschachtelt' },
    detail: {
      en: 'The request body nests arrays and objects deeper than {limit} levels.',
      de: 'Der Inhalt der Anfrage verschachtelt Arrays und Objekte tiefer als {limit} Ebenen.',
    },
  },
  rate_limited: {
    status: 429,
    title: { en: 'Too many requests', de: 'Zu viele Anfragen' },
    detail: {
      en: 'Rate limit exceeded; retry after {retryAfter} seconds.',
      de: 'Anfragelimit überschritten; erneut versuchen in {retryAfter} Sekunden.',
    },
  },
});

export const jsonTooDeep = (limit: number) => problems.json_too_deep({ limit });
export const rateLimited = (retryAfter: number) => problems.rate_limited({}, { retryAfter });
