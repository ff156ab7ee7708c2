import { negotiateLanguage } from '@fincore/platform';

export type LinkRefusal = 'used' | 'expired' | 'unknown';

const TEXT = {
  en: {
    title: 'Portal link not valid',
    used: 'This portal link has already been used. Ask for a new one.',
    expired: 'This portal link has expired. Ask for a new one.',
    unknown: 'This portal link is not valid. Check that it was copied whole, or ask for a new one.',
  },
  de: {
    title: 'Portal-Link ungültig',
    used: 'Dieser Portal-Link wurde bereits verwendet. Fordern Sie einen neuen an.',
    expired: 'Dieser Portal-Link ist abgelaufen. Fordern Sie einen neuen an.',
    unknown:
      'Dieser Portal-Link ist ungültig. Prüfen Sie, ob er vollständig kopiert wurde, oder fordern Sie einen neuen an.',
  },
};

/** 410 for a link that was good once, 400 for one that never was. */
export function refusalStatus(reason: LinkRefusal): number {
  return reason === 'unknown' ? 400 : 410;
}

/** A page without script or style of its own, so the portal's strict policy holds for it too. */
export function refusalPage(reason: LinkRefusal, acceptLanguage: string | undefined): string {
  const language = negotiateLanguage(acceptLanguage);
  const text = TEXT[language];
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${text.title}</title></head>
<body><h1>${text.title}</h1><p>${text[reason]}</p></body>
</html>
`;
}

/**
 * Headers of every portal response: scripts, styles and requests from this origin only, framed
 * only by the configured origins, the link's code never sent on as a Referer.
 */
export function portalSecurityHeaders(frameAncestors: string): Record<string, string> {
  const ancestors = frameAncestors.trim() || "'none'";
  return {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      `frame-ancestors ${ancestors}`,
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}
