import type { FieldError } from '@fincore/platform';
import { settingsRefused } from './card-settings.problems';
import {
  AuthorisationType,
  CardProfile,
  findSettingsViolations,
  SettingsViolation,
} from '../domain/card-settings';

const FIELD_MESSAGE: Record<SettingsViolation['code'], string> = {
  unknown_service_code: 'not a service code',
  duplicate_service_code: 'service code given more than once',
  service_code_not_supported_by_network: 'service code not available on the card network',
  service_code_not_in_usage_group: "service code not allowed by the card's usage group",
  service_codes_missing: "service code of the card's usage group missing",
};

/**
 * Refuses a list of authorisation types that breaks a rule, with the first (most basic) violation's
 * code, its service codes in the detail and one errors[] entry per offending entry.
 */
export function assertSettingsAcceptable(
  requested: readonly AuthorisationType[],
  profile: CardProfile,
  context: { cardId: string; usageGroup: string },
  fieldPrefix = 'authorisationTypes',
): void {
  const [violation] = findSettingsViolations(requested, profile);
  if (!violation) return;
  const errors: FieldError[] =
    violation.code === 'service_codes_missing'
      ? violation.serviceCodes.map((code) => ({
          field: fieldPrefix,
          message: `${FIELD_MESSAGE[violation.code]}: ${code}`,
          code: violation.code,
        }))
      : violation.indices.map((i) => ({
          field: `${fieldPrefix}[${i}].serviceCode`,
          message: `${FIELD_MESSAGE[violation.code]}: ${requested[i].serviceCode}`,
          code: violation.code,
        }));
  throw settingsRefused(
    violation.code,
    { ...context, network: profile.network, serviceCodes: violation.serviceCodes },
    errors,
  );
}
