import type { DataSource } from 'typeorm';
import { CardApiApp } from '../../apps/card-api/src/app.definition';
import { AppWorld, startAppWorld } from './app-world';
import { createAccount } from './builders/accounts';
import { CardInput, createCard } from './builders/cards';
import { createUsageGroup } from './builders/usage-groups';
import { countRows, selectRows } from './db';
import type { ApiClient, ApiResponse } from './http';
import { outboxEvents } from './outbox';
import type { RunningApp, TenantFixture } from './stack';

/** Codes of the STANDARD group of `setUpCardTenant`, in catalog order. */
export const STANDARD_CODES = ['00', '0A', '0C', '01', '20', '30'];
/** Every code of the service-code catalog, in catalog order (the ALL group). */
export const ALL_CODES = ['00', '0A', '0C', '0M', '01', '09', '10', '11', '20', '21', '28', '30', '39'];

export type AuthorisationEntry = { serviceCode: string; allowed: boolean };

/** Authorisation types written as `'00+ 0A- 01+'`: `+` allowed, `-` not. */
export const entries = (spec: string): AuthorisationEntry[] =>
  spec.split(' ').map((t) => ({ serviceCode: t.slice(0, -1), allowed: t.endsWith('+') }));

/** A settings-change body with these authorisation types, renewable and without xpays (the defaults). */
export const settingsBody = (spec: string) => ({
  authorisationTypes: entries(spec),
  renewable: true,
  xpaysAllowed: false,
});

/** Account ACC-1 and usage groups STANDARD and ALL for the tenant. */
export async function setUpCardTenant(api: ApiClient, token: string): Promise<void> {
  await createAccount(api, token, { accountId: 'ACC-1' });
  await createUsageGroup(api, token, {
    code: 'STANDARD',
    name: 'Standard debit',
    allowedServiceCodes: STANDARD_CODES,
  });
  await createUsageGroup(api, token, { code: 'ALL', name: 'Everything', allowedServiceCodes: ALL_CODES });
}

/** Starts the card API (see `startAppWorld`) with acme set up by `setUpCardTenant`. */
export async function startCardApiWithCardTenant(): Promise<AppWorld> {
  const app = await startAppWorld(CardApiApp);
  await setUpCardTenant(app.sut.api, app.acme.token);
  return app;
}

/**
 * As `startCardApiWithCardTenant`, and a second instance of the card API on the same database:
 * another replica behind a load balancer.
 */
export async function startCardApiReplicasWithCardTenant(): Promise<AppWorld & { replica: RunningApp }> {
  const app = await startCardApiWithCardTenant();
  return { ...app, replica: await app.stack.startApp(CardApiApp) };
}

/** A VISA debit card on ACC-1 in group STANDARD (see `setUpCardTenant`) unless told; returns its id. */
export async function provisionCard(
  api: ApiClient,
  token: string,
  overrides: Partial<CardInput> = {},
): Promise<string> {
  return (await createCard(api, token, { accountId: 'ACC-1', usageGroup: 'STANDARD', ...overrides })).cardId;
}

/** POST …/settings/change as the tenant, with its x-tenant-code unless the headers say otherwise. */
export function changeSettings(
  api: ApiClient,
  tenant: TenantFixture,
  cardId: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return api.post(`/api/v1/cards/${cardId}/settings/change`, body, {
    token: tenant.token,
    headers: { 'x-tenant-code': tenant.tenant.code, ...headers },
  });
}

export function checkAuthorisation(
  api: ApiClient,
  token: string,
  cardId: string,
  serviceCode: string,
): Promise<ApiResponse> {
  return api.post(`/api/v1/cards/${cardId}/authorisations/check`, { serviceCode }, { token });
}

export function getSettings(api: ApiClient, token: string, cardId: string): Promise<ApiResponse> {
  return api.get(`/api/v1/cards/${cardId}/settings`, { token });
}

/** GET …/settings/history, with an optional query string such as `?limit=2`. */
export function getHistory(api: ApiClient, token: string, cardId: string, query = ''): Promise<ApiResponse> {
  return api.get(`/api/v1/cards/${cardId}/settings/history${query}`, { token });
}

/** Everything a rejected request could have touched: the card's settings, history and events. */
export async function cardFootprint(db: DataSource, cardId: string) {
  const [card] = await selectRows(
    db,
    'cards.cards',
    { card_id: cardId },
    { columns: 'authorisation_types, renewable, xpays_allowed, settings_version' },
  );
  const history = await countRows(db, 'cards.card_settings_changes', { card_id: cardId });
  const events = (await outboxEvents(db, { type: 'CARD_SETTINGS_CHANGED', data: { cardId } })).length;
  return { card, history, events };
}

/** The settings part of a settings view or history entry. */
export const settingsOf = (s: {
  authorisationTypes: unknown;
  renewable: unknown;
  xpaysAllowed: unknown;
}) => ({
  authorisationTypes: s.authorisationTypes,
  renewable: s.renewable,
  xpaysAllowed: s.xpaysAllowed,
});

/**
 * Asserts that the card's history is one unbroken chain ending in the settings in force: versions
 * 2, 3, … without gaps, each entry's `previous` the prior entry's `current` (the first's the given
 * initial settings, when given), the last `current` the settings now in force at the card's
 * version, and one CARD_SETTINGS_CHANGED event per entry. Returns the settings view and the
 * history, oldest first.
 */
export async function expectHistoryChain(
  api: ApiClient,
  db: DataSource,
  token: string,
  cardId: string,
  initial?: unknown,
) {
  const view = (await getSettings(api, token, cardId)).body;
  const history = (await getHistory(api, token, cardId, '?limit=200')).body.items.reverse();
  expect(history.map((h: { version: number }) => h.version)).toEqual(
    history.map((_: unknown, i: number) => i + 2),
  );
  if (initial !== undefined && history.length) expect(history[0].previous).toEqual(initial);
  for (let i = 1; i < history.length; i++) expect(history[i].previous).toEqual(history[i - 1].current);
  expect(view.version).toBe(history.length + 1);
  if (history.length) expect(history[history.length - 1].current).toEqual(settingsOf(view));
  expect((await cardFootprint(db, cardId)).events).toBe(history.length);
  return { view, history };
}
