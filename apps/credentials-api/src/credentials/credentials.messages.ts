import { registerMessages } from '@fincore/platform';

registerMessages({
  invalid_credentials: {
    title: { en: 'Invalid credentials', de: 'Ungültige Zugangsdaten' },
    detail: {
      en: 'The username and password do not match valid credentials of the person.',
      de: 'Benutzername und Passwort passen nicht zu gültigen Zugangsdaten der Person.',
    },
  },
});
