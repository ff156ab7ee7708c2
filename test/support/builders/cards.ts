import { ApiClient, ApiResponse, expectStatus } from '../http';
import { uniqueId } from './ids';

export interface CardInput {
  cardId: string;
  accountId: string;
  usageGroup: string;
  network: string;
  cardType: string;
  settings?: {
    authorisationTypes: Array<{ serviceCode: string; allowed: boolean }>;
    renewable: boolean;
    xpaysAllowed: boolean;
  };
}

/**
 * Provisions a card through the API (201 or the test fails) on an existing account and usage
 * group: a VISA debit card with the group's default settings unless told.
 */
export async function createCard(
  api: ApiClient,
  token: string,
  input: Pick<CardInput, 'accountId' | 'usageGroup'> & Partial<CardInput>,
): Promise<CardInput> {
  const card = { cardId: uniqueId('CARD'), network: 'VISA', cardType: 'DEBIT', ...input };
  expectStatus(await api.post('/api/v1/cards', card, { token }), 201, `provision card ${card.cardId}`);
  return card;
}

/** POST …/status/change; the answer, for the test to judge. */
export function changeCardStatus(
  api: ApiClient,
  token: string,
  cardId: string,
  status: 'ACTIVE' | 'BLOCKED' | 'CLOSED' | string,
): Promise<ApiResponse> {
  return api.post(`/api/v1/cards/${cardId}/status/change`, { status }, { token });
}
