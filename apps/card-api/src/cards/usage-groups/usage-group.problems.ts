import { defineProblems } from '@fincore/platform';

/** Problem codes of usage groups. */
const problems = defineProblems({
  usage_group_not_found: {
    status: 404,
    title: { en: 'Usage group not found', de: 'Nutzungsgruppe nicht gefunden' },
    detail: { en: 'There is no usage group {code}.', de: 'Es gibt keine Nutzungsgruppe {code}.' },
  },
  usage_group_exists: {
    status: 409,
    title: { en: 'Usage group already exists', de: 'Nutzungsgruppe existiert bereits' },
    detail: {
      en: 'A usage group {code} already exists.',
      de: 'Eine Nutzungsgruppe {code} existiert bereits.',
    },
  },
});

export const usageGroupNotFound = (code: string) => problems.usage_group_not_found({ code });
export const usageGroupExists = (code: string) => problems.usage_group_exists({ code });
