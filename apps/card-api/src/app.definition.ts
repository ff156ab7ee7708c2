import type { AppDefinition } from '@fincore/platform';
import { CardApiModule } from './card-api.module';

export const CardApiApp: AppDefinition = {
  name: 'card-api',
  title: 'fincore card API',
  description:
    'Cards, usage groups, card settings and authorisation checks; accounts, price lists and fee quotes.',
  module: CardApiModule,
  port: (config) => config.CARD_API_PORT,
};
