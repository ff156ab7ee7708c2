import type { DemoSeed } from '@fincore/platform';
import { loadConfig } from '@fincore/platform';
import { CredentialsStatus, usernameKey } from './domain/credentials';
import { PersonEntity } from './person.entity';
import { hashPassword } from './password-hasher';
import { PersonRepository } from './person.repository';

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
    const persons = new PersonRepository(manager.dataSource);
    let person = await persons.findByPersonId(manager, tenant.id, DEMO_PERSON.personId);
    if (!person) {
      await persons.insert(
        manager,
        {
          tenantId: tenant.id,
          personId: DEMO_PERSON.personId,
          firstName: DEMO_PERSON.firstName,
          lastName: DEMO_PERSON.lastName,
          email: DEMO_PERSON.email,
          phone: null,
          username: DEMO_PERSON.username,
          usernameKey: usernameKey(DEMO_PERSON.username),
          passwordHash: await hashPassword(DEMO_PERSON.password, loadConfig()),
        },
        new Date(),
      );
      person = await persons.findByPersonId(manager, tenant.id, DEMO_PERSON.personId);
      if (!person) throw new Error(`Demo person ${DEMO_PERSON.personId} was not stored`);
    }
    return {
      person: {
        personId: person.personId,
        username: person.username,
        password: DEMO_PERSON.password,
        credentialsStatus: person.credentialsStatus,
        ...(person.credentialsStatus === CredentialsStatus.Invalidated
          ? {
              note: 'credentials were invalidated; set new ones with PUT /api/v1/persons/demo-person-1/credentials',
            }
          : {}),
      },
    };
  },
};
