import { settingsChanges } from '../drivers/cards';
import { CardStage } from './card-load';
import { Scenario } from './scenario';

/** Card settings changes over the provisioned cards, each emitting a webhook event. */
export const cardSettings: Scenario<CardStage> = {
  name: 'settings',
  run: ({ ctx, cards, measure }) =>
    measure('settings', {
      label: 'settings changes',
      headers: { 'x-auth-token': ctx.tenant.token, 'x-tenant-code': ctx.tenant.code },
      next: () => settingsChanges(cards),
    }),
};
