import { defineProblems, FieldError } from '@fincore/platform';

/** Problem codes of persons and their credentials. */
const problems = defineProblems({
  person_not_found: {
    status: 404,
    title: { en: 'Person not found', de: 'Person nicht gefunden' },
    detail: { en: 'There is no person {personId}.', de: 'Es gibt keine Person {personId}.' },
  },
  person_erased: {
    status: 410,
    title: { en: 'Person erased', de: 'Person gelöscht' },
    detail: {
      en: 'Person {personId} was erased; nothing of them can be read or changed any more.',
      de: 'Person {personId} wurde gelöscht; von ihr kann nichts mehr gelesen oder geändert werden.',
    },
  },
  person_exists: {
    status: 409,
    title: { en: 'Person already exists', de: 'Person existiert bereits' },
    detail: { en: 'A person {personId} already exists.', de: 'Eine Person {personId} existiert bereits.' },
  },
  username_taken: {
    status: 409,
    title: { en: 'Username taken', de: 'Benutzername vergeben' },
    detail: {
      en: 'Another person already has this username (usernames are unique regardless of case).',
      de: 'Eine andere Person hat diesen Benutzernamen bereits (ohne Unterscheidung von Groß- und Kleinschreibung).',
    },
  },
  password_policy_violated: {
    status: 422,
    title: { en: 'Password too weak', de: 'Passwort zu schwach' },
    detail: {
      en: 'The password does not meet the password policy; see errors.',
      de: 'Das Passwort erfüllt die Passwortrichtlinie nicht; siehe errors.',
    },
  },
  password_reused: {
    status: 422,
    title: { en: 'Password reused', de: 'Passwort wiederverwendet' },
    detail: {
      en: 'The new password must differ from the invalidated one.',
      de: 'Das neue Passwort muss sich vom ungültig gemachten unterscheiden.',
    },
  },
  credentials_active: {
    status: 409,
    title: { en: 'Credentials still active', de: 'Zugangsdaten noch gültig' },
    detail: {
      en: 'The credentials of person {personId} are active; invalidate them before setting new ones.',
      de: 'Die Zugangsdaten der Person {personId} sind gültig; machen Sie sie ungültig, bevor Sie neue setzen.',
    },
  },
  credentials_locked: {
    status: 429,
    title: { en: 'Too many failed attempts', de: 'Zu viele Fehlversuche' },
    detail: {
      en: 'Too many failed attempts for this username; retry after {retryAfter} seconds.',
      de: 'Zu viele Fehlversuche für diesen Benutzernamen; erneut versuchen in {retryAfter} Sekunden.',
    },
  },
});

export const personNotFound = (personId: string) => problems.person_not_found({ personId });
export const personErased = (personId: string) => problems.person_erased({ personId });
export const personExists = (personId: string) => problems.person_exists({ personId });
export const usernameTaken = () => problems.username_taken();
export const passwordPolicyViolated = (violations: FieldError[]) =>
  problems.password_policy_violated({}, { errors: violations });
export const passwordReused = () => problems.password_reused();
export const credentialsActive = (personId: string) => problems.credentials_active({ personId });
export const credentialsLocked = (retryAfter: number) => problems.credentials_locked({}, { retryAfter });
