/** The profile of a person: what PATCH may change. Never any credential material. */
export const PROFILE_FIELDS = ['firstName', 'lastName', 'email', 'phone'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type Profile = Record<ProfileField, string | null>;
/** Absent: keep; null: clear; a string: set. */
export type ProfilePatch = Partial<Profile>;

/** The profile fields of anything that has them (a stored person), and nothing else. */
export function profileOf(source: Profile): Profile {
  return { firstName: source.firstName, lastName: source.lastName, email: source.email, phone: source.phone };
}

/** Names of the fields the patch really changes, in a stable order; empty when nothing changes. */
export function changedProfileFields(current: Profile, patch: ProfilePatch): ProfileField[] {
  return PROFILE_FIELDS.filter((field) => patch[field] !== undefined && patch[field] !== current[field]);
}

export function applyProfilePatch(current: Profile, patch: ProfilePatch): Profile {
  const next = { ...current };
  for (const field of changedProfileFields(current, patch)) next[field] = patch[field] ?? null;
  return next;
}
