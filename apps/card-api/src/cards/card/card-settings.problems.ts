import { defineProblems, FieldError } from '@fincore/platform';
import type { SettingsViolationCode } from '../domain/card-settings';

/** Problem codes of a card's authorisation types: 400 for a malformed list, 422 for one that breaks the card's rules. */
const problems = defineProblems({
  unknown_service_code: {
    status: 400,
    title: { en: 'Unknown service code', de: 'Unbekannter Service-Code' },
    detail: {
      en: 'Not a service code: {serviceCodes}. See GET /api/v1/service-codes.',
      de: 'Kein Service-Code: {serviceCodes}. Siehe GET /api/v1/service-codes.',
    },
  },
  duplicate_service_code: {
    status: 400,
    title: { en: 'Service code given more than once', de: 'Service-Code mehrfach angegeben' },
    detail: {
      en: 'authorisationTypes lists these service codes more than once: {serviceCodes}.',
      de: 'authorisationTypes enthält diese Service-Codes mehrfach: {serviceCodes}.',
    },
  },
  service_code_not_supported_by_network: {
    status: 422,
    title: {
      en: 'Service code not available on the card network',
      de: 'Service-Code im Kartennetzwerk nicht verfügbar',
    },
    detail: {
      en: 'Card {cardId} is a {network} card; these service codes exist on VISA only: {serviceCodes}.',
      de: 'Karte {cardId} ist eine {network}-Karte; diese Service-Codes gibt es nur bei VISA: {serviceCodes}.',
    },
  },
  service_code_not_in_usage_group: {
    status: 422,
    title: {
      en: 'Service code not allowed by the usage group',
      de: 'Service-Code in der Nutzungsgruppe nicht erlaubt',
    },
    detail: {
      en: 'The usage group {usageGroup} of card {cardId} does not allow these service codes: {serviceCodes}.',
      de: 'Die Nutzungsgruppe {usageGroup} der Karte {cardId} erlaubt diese Service-Codes nicht: {serviceCodes}.',
    },
  },
  service_codes_missing: {
    status: 422,
    title: { en: 'Service codes missing', de: 'Service-Codes fehlen' },
    detail: {
      en: 'The usage group {usageGroup} of card {cardId} allows these service codes, so the request must say whether each is allowed: {serviceCodes}.',
      de: 'Die Nutzungsgruppe {usageGroup} der Karte {cardId} erlaubt diese Service-Codes, daher muss die Anfrage für jeden angeben, ob er erlaubt ist: {serviceCodes}.',
    },
  },
});

export const unknownServiceCode = (serviceCode: string) =>
  problems.unknown_service_code(
    { serviceCodes: [serviceCode] },
    {
      errors: [
        { field: 'serviceCode', message: `not a service code: ${serviceCode}`, code: 'unknown_service_code' },
      ],
    },
  );

/** A list of authorisation types that breaks a rule: the service codes in the detail and as a member of the body. */
export const settingsRefused = (
  code: SettingsViolationCode,
  params: { cardId: string; usageGroup: string; network: string; serviceCodes: string[] },
  errors: FieldError[],
) => problems[code](params, { errors, extensions: { serviceCodes: params.serviceCodes } });
