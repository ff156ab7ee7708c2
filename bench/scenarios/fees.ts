import { feeQuotes, sameFeeQuotes } from '../drivers/cards';
import { CardStage } from './card-load';
import { Scenario } from './scenario';

/** Fee quotes over the provisioned cards, after a check that both systems quote the same fees. */
export const fees: Scenario<CardStage> = {
  name: 'fees',
  run: ({ ctx, cards, measure }) =>
    measure('fees', {
      label: 'fee quotes',
      headers: { 'x-auth-token': ctx.tenant.token },
      next: () => feeQuotes(cards),
      precheck: (cardApi) => sameFeeQuotes(cardApi, ctx.baselineApi.url, ctx.tenant.token, cards[0]),
    }),
};
