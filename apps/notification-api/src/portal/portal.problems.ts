import { defineProblems } from '@fincore/platform';

/** Problem codes of the subscriber portal's sessions. */
const problems = defineProblems({
  portal_session_required: {
    status: 400,
    title: { en: 'Portal session required', de: 'Portal-Sitzung erforderlich' },
    detail: {
      en: 'Only a portal session signs out, with its cookie; an API token has no session to end.',
      de: 'Nur eine Portal-Sitzung meldet sich ab, mit ihrem Cookie; ein API-Token hat keine Sitzung, die enden könnte.',
    },
  },
});

export const portalSessionRequired = () => problems.portal_session_required();
