import { defineProblems } from '../errors/problem-catalog';
import type { FieldError } from '../errors/problem';

const problems = defineProblems({
  validation_failed: {
    status: 400,
    title: { en: 'The request is not valid', de: 'Die Anfrage ist ungültig' },
    detail: {
      en: 'One or more fields are missing or invalid; see errors.',
      de: 'Ein oder mehrere Felder fehlen oder sind ungültig; siehe errors.',
    },
  },
  invalid_cursor: {
    status: 400,
    title: { en: 'Invalid cursor', de: 'Ungültiger Cursor' },
    detail: {
      en: 'Pass the nextCursor of a previous page unchanged.',
      de: 'Übergeben Sie den nextCursor einer vorherigen Seite unverändert.',
    },
  },
});

export const validationFailed = (errors: FieldError[]) => problems.validation_failed({}, { errors });
export const invalidCursor = (field = 'cursor') =>
  problems.invalid_cursor({}, { errors: [{ field, message: 'unknown cursor' }] });
