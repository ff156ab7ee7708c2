import type { DemoSeed } from '@fincore/platform';
import { loadConfig } from '@fincore/platform';
import { usernameKey } from '../credentials/domain/credentials';
import { hashPassword } from '../credentials/password-hasher';
import { PersonEntity } from './entities/person.entity';

export const DEMO_PERSON = {
  personId: 'demo-person-1',
  username: 'demo.user',
  password: 'Demo-Passw0rd-2025',
  firstName: 'Demo',
  lastName: 'User',
  email: 'demo.user@example.com',
};

/** The demo person with known credentials; an existing one is described as it is (possibly invalidated). */
export const personsDemoSeed: DemoSeed = {
  context: 'credentials',
  entities: [PersonEntity],
  async seed(manager, tenant) {
    const repo = manager.getRepository(PersonEntity);
    let person = await repo.findOne({ where: { tenantId: tenant.id, personId: DEMO_PERSON.personId } });
    if (!person) {
      const now = new Date();
      await repo.insert({
        tenantId: tenant.id,
        personId: DEMO_PERSON.personId,
        firstName: DEMO_PERSON.firstName,
        lastName: DEMO_PERSON.lastName,
        email: DEMO_PERSON.email,
        phone: null,
        username: DEMO_PERSON.username,
        usernameKey: usernameKey(DEMO_PERSON.username),
        passwordHash: await hashPassword(DEMO_PERSON.password, loadConfig()),
        credentialsStatus: 'ACTIVE',
        credentialsInvalidatedAt: null,
        credentialsUpdatedAt: now,
        updatedAt: now,
      });
      person = await repo.findOneOrFail({ where: { tenantId: tenant.id, personId: DEMO_PERSON.personId } });
    }
    return {
      person: {
        personId: person.personId,
        username: person.username,
        password: DEMO_PERSON.password,
        credentialsStatus: person.credentialsStatus,
        ...(person.credentialsStatus === 'INVALIDATED'
          ? {
              note: 'credentials were invalidated; set new ones with PUT /api/v1/persons/demo-person-1/credentials',
            }
          : {}),
      },
    };
  },
};
