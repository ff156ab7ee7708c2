import { CardStatus } from './card-status';
import { inCatalogOrder, isServiceCode, isSupportedByNetwork, Network } from './service-codes';

export interface AuthorisationType {
  serviceCode: string;
  allowed: boolean;
}

/** The settings of a card as the API shows them: one entry per applicable service code. */
export interface CardSettings {
  authorisationTypes: AuthorisationType[];
  renewable: boolean;
  xpaysAllowed: boolean;
}

/** What the settings rules need to know about a card. */
export interface CardProfile {
  network: Network;
  /** Service codes the card's usage group allows. */
  usageGroupCodes: readonly string[];
}

/** How the allowed flags are stored: service code -> allowed. */
export type AuthorisationFlags = Record<string, boolean>;

export type SettingsViolationCode =
  | 'unknown_service_code'
  | 'duplicate_service_code'
  | 'service_code_not_supported_by_network'
  | 'service_code_not_in_usage_group'
  | 'service_codes_missing';

export interface SettingsViolation {
  code: SettingsViolationCode;
  /** 400 for a malformed list, 422 for a list that breaks the card's rules. */
  status: 400 | 422;
  serviceCodes: string[];
  /** Index of each offending entry in authorisationTypes; empty for missing codes. */
  indices: number[];
}

/**
 * The codes a card carries a flag for: those its usage group allows, less those its network does
 * not know (a group may list 10 and 11, which only mean something on a VISA card).
 */
export function applicableServiceCodes(profile: CardProfile): string[] {
  return inCatalogOrder(
    profile.usageGroupCodes.filter((code) => isSupportedByNetwork(code, profile.network)),
  );
}

/**
 * Checks a requested list of authorisation types against the catalog and the card, most basic
 * problem first: unknown codes, duplicates, network restrictions, usage-group restrictions, then
 * codes the group allows but the request leaves unsaid. Empty when the list is acceptable.
 */
export function findSettingsViolations(
  requested: readonly AuthorisationType[],
  profile: CardProfile,
): SettingsViolation[] {
  const collect = (
    code: SettingsViolationCode,
    status: 400 | 422,
    test: (entry: AuthorisationType, index: number) => boolean,
  ) => {
    const indices = requested.flatMap((entry, index) => (test(entry, index) ? [index] : []));
    const serviceCodes = [...new Set(indices.map((i) => requested[i].serviceCode))];
    return indices.length ? [{ code, status, serviceCodes, indices }] : [];
  };
  const firstIndex = new Map<string, number>();
  requested.forEach((entry, index) => {
    if (!firstIndex.has(entry.serviceCode)) firstIndex.set(entry.serviceCode, index);
  });
  const group = new Set(profile.usageGroupCodes);

  const unknown = collect('unknown_service_code', 400, (e) => !isServiceCode(e.serviceCode));
  const duplicate = collect(
    'duplicate_service_code',
    400,
    (e, i) => isServiceCode(e.serviceCode) && firstIndex.get(e.serviceCode) !== i,
  );
  const network = collect(
    'service_code_not_supported_by_network',
    422,
    (e) => isServiceCode(e.serviceCode) && !isSupportedByNetwork(e.serviceCode, profile.network),
  );
  const notInGroup = collect(
    'service_code_not_in_usage_group',
    422,
    (e) =>
      isServiceCode(e.serviceCode) &&
      isSupportedByNetwork(e.serviceCode, profile.network) &&
      !group.has(e.serviceCode),
  );
  const said = new Set(requested.map((e) => e.serviceCode));
  const missing = applicableServiceCodes(profile).filter((code) => !said.has(code));
  return [
    ...unknown,
    ...duplicate,
    ...network,
    ...notInGroup,
    ...(missing.length
      ? [{ code: 'service_codes_missing' as const, status: 422 as const, serviceCodes: missing, indices: [] }]
      : []),
  ];
}

/** The stored flags of an accepted request. */
export function toFlags(requested: readonly AuthorisationType[]): AuthorisationFlags {
  return Object.fromEntries(requested.map((e) => [e.serviceCode, e.allowed]));
}

/**
 * The settings in force: one entry per applicable code, in catalog order. A code without a stored
 * flag (added to the usage group after the card's last change) is not allowed until someone says so.
 */
export function settingsInForce(
  flags: AuthorisationFlags,
  profile: CardProfile,
  renewable: boolean,
  xpaysAllowed: boolean,
): CardSettings {
  return {
    authorisationTypes: applicableServiceCodes(profile).map((serviceCode) => ({
      serviceCode,
      allowed: flags[serviceCode] === true,
    })),
    renewable,
    xpaysAllowed,
  };
}

/** A card's stored settings, as the cards table keeps them. */
export interface StoredSettings {
  network: Network;
  authorisationTypes: AuthorisationFlags;
  renewable: boolean;
  xpaysAllowed: boolean;
}

/** What the settings rules need of a card and its usage group. */
export function profileOf(
  card: { network: Network },
  group: { allowedServiceCodes: readonly string[] },
): CardProfile {
  return { network: card.network, usageGroupCodes: group.allowedServiceCodes };
}

/** The settings in force of a stored card under its usage group. */
export function settingsOf(
  card: StoredSettings,
  group: { allowedServiceCodes: readonly string[] },
): CardSettings {
  return settingsInForce(card.authorisationTypes, profileOf(card, group), card.renewable, card.xpaysAllowed);
}

/**
 * The flags a card keeps when its usage group changes: those of codes the group still allows. A
 * dropped flag is gone for good, so a code the group allows again starts as not allowed (fail closed).
 */
export function flagsWithinGroup(
  flags: AuthorisationFlags,
  usageGroupCodes: readonly string[],
): AuthorisationFlags {
  const allowed = new Set(usageGroupCodes);
  return Object.fromEntries(Object.entries(flags).filter(([code]) => allowed.has(code)));
}

/** Why a card's settings in force changed: its own settings change, or a change of its usage group. */
export const SettingsChangeCause = {
  SETTINGS_CHANGE: 'SETTINGS_CHANGE',
  USAGE_GROUP_CHANGE: 'USAGE_GROUP_CHANGE',
} as const;
export type SettingsChangeCause = (typeof SettingsChangeCause)[keyof typeof SettingsChangeCause];

/** Names of what differs, e.g. `authorisationTypes.0C`, `renewable`; empty when nothing changed. */
export function changedFields(previous: CardSettings, next: CardSettings): string[] {
  const before = new Map(previous.authorisationTypes.map((a) => [a.serviceCode, a.allowed]));
  const after = new Map(next.authorisationTypes.map((a) => [a.serviceCode, a.allowed]));
  const codes = inCatalogOrder([...before.keys(), ...after.keys()]);
  return [
    ...codes
      .filter((code) => before.get(code) !== after.get(code))
      .map((code) => `authorisationTypes.${code}`),
    ...(previous.renewable !== next.renewable ? ['renewable'] : []),
    ...(previous.xpaysAllowed !== next.xpaysAllowed ? ['xpaysAllowed'] : []),
  ];
}

/** Why an authorisation is or is not allowed, most fundamental reason first. */
export const AuthorisationDecisionReason = {
  ALLOWED: 'ALLOWED',
  CARD_CLOSED: 'CARD_CLOSED',
  CARD_BLOCKED: 'CARD_BLOCKED',
  NOT_SUPPORTED_BY_NETWORK: 'NOT_SUPPORTED_BY_NETWORK',
  NOT_IN_USAGE_GROUP: 'NOT_IN_USAGE_GROUP',
  DISABLED_IN_CARD_SETTINGS: 'DISABLED_IN_CARD_SETTINGS',
} as const;
export type AuthorisationDecisionReason =
  (typeof AuthorisationDecisionReason)[keyof typeof AuthorisationDecisionReason];

export interface AuthorisationDecision {
  allowed: boolean;
  reason: AuthorisationDecisionReason;
}

/** Whether an authorisation with `serviceCode` may go through right now, from the settings in force. */
export function decideAuthorisation(
  card: CardProfile & { status: CardStatus; flags: AuthorisationFlags },
  serviceCode: string,
): AuthorisationDecision {
  const deny = (reason: AuthorisationDecisionReason) => ({ allowed: false, reason });
  if (card.status === CardStatus.CLOSED) return deny(AuthorisationDecisionReason.CARD_CLOSED);
  if (card.status === CardStatus.BLOCKED) return deny(AuthorisationDecisionReason.CARD_BLOCKED);
  if (!isSupportedByNetwork(serviceCode, card.network))
    return deny(AuthorisationDecisionReason.NOT_SUPPORTED_BY_NETWORK);
  if (!card.usageGroupCodes.includes(serviceCode))
    return deny(AuthorisationDecisionReason.NOT_IN_USAGE_GROUP);
  if (card.flags[serviceCode] !== true) return deny(AuthorisationDecisionReason.DISABLED_IN_CARD_SETTINGS);
  return { allowed: true, reason: AuthorisationDecisionReason.ALLOWED };
}
