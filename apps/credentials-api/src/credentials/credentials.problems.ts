import { defineProblems } from '@fincore/platform';

const problems = defineProblems({
  invalid_credentials: {
    status: [401, 422],
    title: { en: 'Invalid credentials', de: 'Ungültige Zugangsdaten' },
    detail: {
      en: 'The username and password do not match valid credentials of the person.',
      de: 'Benutzername und Passwort passen nicht zu gültigen Zugangsdaten der Person.',
    },
  },
});

/**
 * One answer for every mismatch (unknown person, other tenant, wrong username, wrong password,
 * credentials changed meanwhile), so the answer tells an attacker nothing: 401 where the username
 * and password are the login, 422 where they are a proof inside an authenticated request.
 */
export const invalidCredentials = (status: 401 | 422) => problems.invalid_credentials(status);
