export const CardType = { DEBIT: 'DEBIT', CREDIT: 'CREDIT', PREPAID: 'PREPAID', GIFT: 'GIFT' } as const;
export type CardType = (typeof CardType)[keyof typeof CardType];
