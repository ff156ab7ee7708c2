import { registerFieldMessages } from '@fincore/platform';

/** German texts of the English messages that pricing's schemas and rules put in errors[]. */
registerFieldMessages({
  'a date written YYYY-MM-DD': { de: 'ein Datum der Form JJJJ-MM-TT' },
  'this date does not exist in the calendar': { de: 'dieses Datum gibt es im Kalender nicht' },
  'an ISO 4217 alphabetic code, e.g. EUR': { de: 'ein alphabetischer Code nach ISO 4217, z. B. EUR' },
  'not an active ISO 4217 currency code': { de: 'kein gültiger Währungscode nach ISO 4217' },
  'must not be before validFrom': { de: 'darf nicht vor validFrom liegen' },
  'required for level ACCOUNT': { de: 'für die Ebene ACCOUNT erforderlich' },
  'required for level CARD': { de: 'für die Ebene CARD erforderlich' },
  'must differ from baseCurrency': { de: 'muss sich von baseCurrency unterscheiden' },
  'upper-case letters, digits and _, starting with a letter': {
    de: 'Großbuchstaben, Ziffern und _, beginnend mit einem Buchstaben',
  },
});
