import { registerMessages } from '@fincore/platform';

registerMessages({
  invalid_credentials: {
    title: { en: 'Invalid credentials', de: 'Ungültige Zugangsdaten' },
    detail: {
      en: 'The username and password do not match valid credentials of the person.',
      de: 'Benutzername und Passwort passen nicht zu gültigen Zugangsdaten der Person.',
    },
  },
  credentials_locked: {
    title: { en: 'Too many failed attempts', de: 'Zu viele Fehlversuche' },
    detail: {
      en: 'Too many failed attempts for this username; retry after {retryAfter} seconds.',
      de: 'Zu viele Fehlversuche für diesen Benutzernamen; erneut versuchen in {retryAfter} Sekunden.',
    },
  },
});
