import { join } from 'node:path';
import { expectQueriesSnapshot } from '@test/support/query-snapshot';
import { openTestDatabase, TestDatabase } from '@test/support/test-database';
import { PersonEntity } from '../src/persons/person.entity';
import { PersonRepository } from '../src/persons/person.repository';

describe('credentials-api statements', () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await openTestDatabase([PersonEntity]);
  });
  afterAll(() => testDb.close());

  it('sends the person statements checked in under queries/', () => {
    const sut = new PersonRepository(testDb.dataSource);
    expectQueriesSnapshot(join(__dirname, 'person.repository.sql'), sut.statements);
  });
});
