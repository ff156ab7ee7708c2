import {
  applicableServiceCodes,
  AuthorisationType,
  CardProfile,
  changedFields,
  decideAuthorisation,
  findSettingsViolations,
  flagsWithinGroup,
  profileOf,
  settingsOf,
  settingsInForce,
  toFlags,
} from './card-settings';
import { SERVICE_CODE_VALUES } from './service-codes';

const visaDebit: CardProfile = { network: 'VISA', usageGroupCodes: ['00', '0A', '01', '10'] };
const mastercardAll: CardProfile = { network: 'MASTERCARD', usageGroupCodes: [...SERVICE_CODE_VALUES] };
/** `entries('00+ 0A-')`: a list in the given order (object keys like '10' would be reordered). */
const entries = (spec: string): AuthorisationType[] =>
  spec.split(' ').map((token) => ({ serviceCode: token.slice(0, -1), allowed: token.endsWith('+') }));
const allCodes = (allowed: boolean) =>
  entries(SERVICE_CODE_VALUES.map((c) => `${c}${allowed ? '+' : '-'}`).join(' '));

describe('applicableServiceCodes', () => {
  it("is the usage group's codes in catalog order", () => {
    expect(applicableServiceCodes({ network: 'VISA', usageGroupCodes: ['10', '01', '00'] })).toEqual([
      '00',
      '01',
      '10',
    ]);
  });

  it('leaves out the VISA-only codes 10 and 11 on a MASTERCARD card', () => {
    const sut = applicableServiceCodes(mastercardAll);
    expect(sut).not.toContain('10');
    expect(sut).not.toContain('11');
    expect(sut).toHaveLength(11);
  });
});

describe('findSettingsViolations', () => {
  it('accepts exactly the codes of the group, allowed or not', () => {
    expect(findSettingsViolations(entries('00+ 0A- 01+ 10-'), visaDebit)).toEqual([]);
  });

  it('accepts any order', () => {
    expect(findSettingsViolations(entries('10+ 01+ 0A+ 00+'), visaDebit)).toEqual([]);
  });

  it('lists every code of the group the request leaves unsaid', () => {
    const sut = findSettingsViolations(entries('00+'), visaDebit);
    expect(sut).toEqual([
      { code: 'service_codes_missing', status: 422, serviceCodes: ['0A', '01', '10'], indices: [] },
    ]);
  });

  it('rejects an unknown code with 400, naming it and its position', () => {
    const sut = findSettingsViolations(entries('00+ 0A+ 01+ 10+ 99+'), visaDebit);
    expect(sut[0]).toEqual({ code: 'unknown_service_code', status: 400, serviceCodes: ['99'], indices: [4] });
  });

  it('rejects a duplicate entry with 400, even when both say the same', () => {
    const requested = [...entries('00+ 0A+ 01+ 10+'), { serviceCode: '01', allowed: true }];
    const [sut] = findSettingsViolations(requested, visaDebit);
    expect(sut).toEqual({ code: 'duplicate_service_code', status: 400, serviceCodes: ['01'], indices: [4] });
  });

  it('rejects a code the usage group does not allow with 422, even as allowed: false', () => {
    const [sut] = findSettingsViolations(entries('00+ 0A+ 01+ 10+ 0C- 39+'), visaDebit);
    expect(sut).toEqual({
      code: 'service_code_not_in_usage_group',
      status: 422,
      serviceCodes: ['0C', '39'],
      indices: [4, 5],
    });
  });

  it('rejects 10 and 11 on a MASTERCARD card with 422, even when the group lists them', () => {
    const [sut] = findSettingsViolations(allCodes(true), mastercardAll);
    expect(sut).toEqual({
      code: 'service_code_not_supported_by_network',
      status: 422,
      serviceCodes: ['10', '11'],
      indices: [6, 7],
    });
  });

  it('accepts 10 and 11 on a VISA card whose group allows them', () => {
    expect(
      findSettingsViolations(allCodes(false), { network: 'VISA', usageGroupCodes: [...SERVICE_CODE_VALUES] }),
    ).toEqual([]);
  });

  it('reports the most basic problem first', () => {
    const sut = findSettingsViolations(
      [
        { serviceCode: 'XX', allowed: true },
        { serviceCode: '0C', allowed: true },
      ],
      visaDebit,
    );
    expect(sut.map((v) => v.code)).toEqual([
      'unknown_service_code',
      'service_code_not_in_usage_group',
      'service_codes_missing',
    ]);
  });
});

describe('settingsInForce', () => {
  it("lists the group's applicable codes with their flags, an unset flag as not allowed", () => {
    const sut = settingsInForce({ '00': true, '0A': false, '0C': true }, visaDebit, true, false);
    expect(sut).toEqual({
      authorisationTypes: [
        { serviceCode: '00', allowed: true },
        { serviceCode: '0A', allowed: false },
        { serviceCode: '01', allowed: false },
        { serviceCode: '10', allowed: false },
      ],
      renewable: true,
      xpaysAllowed: false,
    });
  });
});

describe('changedFields', () => {
  const before = settingsInForce(toFlags(entries('00+ 0A+ 01+ 10+')), visaDebit, true, false);

  it('is empty when nothing changes', () => {
    expect(changedFields(before, before)).toEqual([]);
  });

  it('names each flipped code and each changed flag', () => {
    const after = settingsInForce(toFlags(entries('00+ 0A- 01+ 10-')), visaDebit, false, true);
    expect(changedFields(before, after)).toEqual([
      'authorisationTypes.0A',
      'authorisationTypes.10',
      'renewable',
      'xpaysAllowed',
    ]);
  });
});

describe('flagsWithinGroup', () => {
  it('keeps the flags of codes the group still allows and drops the others, allowed or not', () => {
    const sut = flagsWithinGroup({ '00': true, '01': false, '30': true, '39': false }, ['00', '30']);
    expect(sut).toEqual({ '00': true, '30': true });
  });

  it('gives no flag to a code the group newly allows, so it starts as not allowed', () => {
    const flags = flagsWithinGroup({ '00': true }, ['00', '0A']);
    expect(flags).toEqual({ '00': true });
    expect(
      settingsInForce(flags, { network: 'VISA', usageGroupCodes: ['00', '0A'] }, true, true),
    ).toMatchObject({
      authorisationTypes: entries('00+ 0A-'),
    });
  });

  it('changes the settings in force by the codes the group added and removed', () => {
    const card = { '00': true, '01': true };
    const previous = settingsInForce(card, { network: 'VISA', usageGroupCodes: ['00', '01'] }, true, false);
    const nextGroup: CardProfile = { network: 'VISA', usageGroupCodes: ['00', '0A'] };
    const current = settingsInForce(
      flagsWithinGroup(card, nextGroup.usageGroupCodes),
      nextGroup,
      true,
      false,
    );
    expect(changedFields(previous, current)).toEqual(['authorisationTypes.0A', 'authorisationTypes.01']);
  });
});

describe('decideAuthorisation', () => {
  const card = {
    ...visaDebit,
    status: 'ACTIVE' as const,
    flags: { '00': true, '0A': false, '01': true, '10': true },
  };

  it('allows a code that is in the group and enabled', () => {
    expect(decideAuthorisation(card, '00')).toEqual({ allowed: true, reason: 'ALLOWED' });
  });

  it('refuses a code disabled in the settings', () => {
    expect(decideAuthorisation(card, '0A')).toEqual({ allowed: false, reason: 'DISABLED_IN_CARD_SETTINGS' });
  });

  it('refuses a code the group does not allow, even with a stale flag', () => {
    expect(decideAuthorisation({ ...card, flags: { ...card.flags, '0C': true } }, '0C')).toEqual({
      allowed: false,
      reason: 'NOT_IN_USAGE_GROUP',
    });
  });

  it('refuses VISA-only codes on a MASTERCARD card', () => {
    expect(decideAuthorisation({ ...card, network: 'MASTERCARD' }, '10')).toEqual({
      allowed: false,
      reason: 'NOT_SUPPORTED_BY_NETWORK',
    });
  });

  it('refuses everything on a blocked or closed card', () => {
    expect(decideAuthorisation({ ...card, status: 'BLOCKED' }, '00')).toEqual({
      allowed: false,
      reason: 'CARD_BLOCKED',
    });
    expect(decideAuthorisation({ ...card, status: 'CLOSED' }, '00')).toEqual({
      allowed: false,
      reason: 'CARD_CLOSED',
    });
  });
});

describe('profileOf and settingsOf', () => {
  const card = {
    network: 'MASTERCARD' as const,
    authorisationTypes: { '00': true, '10': true, '01': false },
    renewable: false,
    xpaysAllowed: true,
  };
  const group = { allowedServiceCodes: ['01', '10', '00'] };

  it("takes the card's network and its group's codes as the profile", () => {
    expect(profileOf(card, group)).toEqual({ network: 'MASTERCARD', usageGroupCodes: ['01', '10', '00'] });
  });

  it('shows the stored flags of the codes that apply to the card under its group', () => {
    expect(settingsOf(card, group)).toEqual({
      authorisationTypes: entries('00+ 01-'),
      renewable: false,
      xpaysAllowed: true,
    });
  });
});
