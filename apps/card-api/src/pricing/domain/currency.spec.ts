import Decimal from 'decimal.js';
import { fitsMinorUnit, formatAmount, isKnownCurrency, roundToMinorUnit } from './currency';

const d = (v: string | number) => new Decimal(v);

describe('currency', () => {
  it('knows the minor units of ISO 4217 currencies and refuses unknown codes', () => {
    expect(formatAmount(d('1200.4'), 'JPY')).toBe('1200');
    expect(formatAmount(d('12.5'), 'EUR')).toBe('12.50');
    expect(formatAmount(d('0.1255'), 'BHD')).toBe('0.126');
    expect(isKnownCurrency('EUR')).toBe(true);
    expect(isKnownCurrency('XXX')).toBe(false);
    expect(isKnownCurrency('eur')).toBe(false);
  });

  it('rounds half up to the minor unit', () => {
    expect(roundToMinorUnit(d('0.125'), 'EUR').toFixed()).toBe('0.13');
    expect(roundToMinorUnit(d('0.135'), 'EUR').toFixed()).toBe('0.14');
    expect(roundToMinorUnit(d('0.1249'), 'EUR').toFixed()).toBe('0.12');
    expect(roundToMinorUnit(d('448.5'), 'JPY').toFixed()).toBe('449');
  });

  it('says whether an amount fits the minor unit of its currency', () => {
    expect(fitsMinorUnit(d('10.05'), 'EUR')).toBe(true);
    expect(fitsMinorUnit(d('10.005'), 'EUR')).toBe(false);
    expect(fitsMinorUnit(d('1.5'), 'JPY')).toBe(false);
    expect(fitsMinorUnit(d('1.005'), 'BHD')).toBe(true);
  });
});
