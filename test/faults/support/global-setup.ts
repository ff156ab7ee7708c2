import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS } from './summary';

/**
 * Once per `npm run test:faults`: a run id (queue prefixes, database names) and an empty record of
 * figures and logs. Every scenario brings its own PostgreSQL and Redis, so nothing is set up on the shared ones.
 */
export default function globalSetup(): void {
  process.env.FINCORE_TEST_RUN = `f${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  for (const dir of ['faults', 'faults-logs']) rmSync(join(ARTIFACTS, dir), { recursive: true, force: true });
}
