import { z } from 'zod';

/** Business identifiers chosen by the tenant's systems (card id, account id, usage group code). */
const businessId = (what: string, example: string) =>
  z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
      'letters, digits, _ . - (1 to 64 characters, starting with a letter or digit)',
    )
    .describe(what)
    .meta({ example });

export const CardId = businessId('Technical identifier of the card, unique per tenant', 'CARD-VISA-0001');
export const AccountId = businessId(
  'Technical identifier of the card account, unique per tenant',
  'ACC-0001',
);
export const UsageGroupCode = businessId('Code of the usage group, unique per tenant', 'STANDARD_DEBIT');
