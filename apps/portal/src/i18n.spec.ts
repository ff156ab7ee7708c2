import { pickLanguage as sut, translator } from './i18n';

describe('pickLanguage', () => {
  it("takes the first of the browser's languages the portal speaks", () => {
    expect(sut(['fr-FR', 'de-AT', 'en'])).toBe('de');
    expect(sut(['en-GB', 'de'])).toBe('en');
  });
  it('falls back to English', () => {
    expect(sut(['fr', 'it'])).toBe('en');
    expect(sut([])).toBe('en');
  });
});

describe('translator', () => {
  it('fills placeholders and leaves unknown ones', () => {
    expect(translator('de')('failingSince', { time: '12:00' })).toBe('Fehlerhaft seit 12:00');
    expect(translator('en')('since')).toBe('Since {time}');
  });
});
