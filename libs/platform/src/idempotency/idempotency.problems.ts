import { defineProblems } from '../errors/problem-catalog';
import { IDEMPOTENCY_IN_FLIGHT_RETRY_AFTER_SECONDS, IDEMPOTENCY_KEY_MAX_LENGTH } from './idempotency-key';

const problems = defineProblems({
  idempotency_key_invalid: {
    status: 400,
    title: { en: 'Invalid Idempotency-Key', de: 'Ungültiger Idempotency-Key' },
    detail: {
      en: 'The Idempotency-Key header must be 1 to {max} printable ASCII characters.',
      de: 'Der Header Idempotency-Key muss aus 1 bis {max} druckbaren ASCII-Zeichen bestehen.',
    },
  },
  idempotency_key_in_flight: {
    status: 409,
    title: { en: 'Request still in progress', de: 'Anfrage wird noch bearbeitet' },
    detail: {
      en: 'A request with this Idempotency-Key is still running; retry after {retryAfter} seconds.',
      de: 'Eine Anfrage mit diesem Idempotency-Key läuft noch; erneut versuchen in {retryAfter} Sekunden.',
    },
  },
  idempotency_key_reused: {
    status: 422,
    title: { en: 'Idempotency-Key reused', de: 'Idempotency-Key wiederverwendet' },
    detail: {
      en: 'This Idempotency-Key was used for another request; use a new key for a new request.',
      de: 'Dieser Idempotency-Key wurde für eine andere Anfrage verwendet; verwenden Sie für eine neue Anfrage einen neuen Schlüssel.',
    },
  },
});

export const idempotencyKeyInvalid = () =>
  problems.idempotency_key_invalid(
    { max: IDEMPOTENCY_KEY_MAX_LENGTH },
    {
      errors: [
        {
          field: 'header:idempotency-key',
          message: `1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`,
        },
      ],
    },
  );
export const idempotencyKeyInFlight = () =>
  problems.idempotency_key_in_flight({}, { retryAfter: IDEMPOTENCY_IN_FLIGHT_RETRY_AFTER_SECONDS });
export const idempotencyKeyReused = () => problems.idempotency_key_reused();
