/** Kind of account the cards draw on. */
export const AccountType = { CURRENT: 'CURRENT', CREDIT: 'CREDIT', PREPAID: 'PREPAID' } as const;
export type AccountType = (typeof AccountType)[keyof typeof AccountType];

export const AccountStatus = { ACTIVE: 'ACTIVE', BLOCKED: 'BLOCKED', CLOSED: 'CLOSED' } as const;
export type AccountStatus = (typeof AccountStatus)[keyof typeof AccountStatus];

/** A closed account takes no new cards; a blocked one still does. */
export function acceptsNewCards(account: { status: AccountStatus }): boolean {
  return account.status !== AccountStatus.CLOSED;
}
