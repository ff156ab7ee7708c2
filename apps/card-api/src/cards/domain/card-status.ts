/** A card's status: ACTIVE and BLOCKED switch both ways; CLOSED is final. */
export const CardStatus = { ACTIVE: 'ACTIVE', BLOCKED: 'BLOCKED', CLOSED: 'CLOSED' } as const;
export type CardStatus = (typeof CardStatus)[keyof typeof CardStatus];

export type StatusTransition =
  { kind: 'unchanged' } | { kind: 'change' } | { kind: 'refused'; reason: 'card_closed' };

/** ACTIVE and BLOCKED switch both ways; CLOSED is final (a closed card is never reopened). */
export function cardStatusTransition(from: CardStatus, to: CardStatus): StatusTransition {
  if (from === to) return { kind: 'unchanged' };
  if (from === CardStatus.CLOSED) return { kind: 'refused', reason: 'card_closed' };
  return { kind: 'change' };
}
