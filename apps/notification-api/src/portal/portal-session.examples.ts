export const portalSessionRequestExample = { readOnly: false };

export const portalSessionExample = {
  url: 'http://127.0.0.1:3003/portal/session?code=3q2-7wAAAAC8Yh1Fj0kq0iW8X9n5y6cVq1m2sR8dZpA',
  expiresAt: '2026-01-15T10:40:00.000Z',
};
