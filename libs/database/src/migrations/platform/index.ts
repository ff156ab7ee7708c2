import { PlatformIdempotencyKeys1763700000720 } from './1763700000720-platform-idempotency-keys';
import { PlatformPortalSessions1763700001010 } from './1763700001010-platform-portal-sessions';
import { PlatformTenantsTokens1763700000000 } from './1763700000000-platform-tenants-tokens';
import { PlatformIdempotencySubject1763700001210 } from './1763700001210-platform-idempotency-subject';

export const PLATFORM_MIGRATIONS = [
  PlatformTenantsTokens1763700000000,
  PlatformIdempotencyKeys1763700000720,
  PlatformPortalSessions1763700001010,
  PlatformIdempotencySubject1763700001210,
];
