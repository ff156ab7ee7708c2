import { join } from 'node:path';
import { expectQueriesSnapshot } from '@test/support/query-snapshot';
import { openTestDatabase, TestDatabase } from '@test/support/test-database';
import { insertChangesSql } from '../src/cards/card/card-settings-change.repository';
import { CardEntity } from '../src/cards/card/card.entity';
import { CardRepository } from '../src/cards/card/card.repository';
import { UsageGroupEntity } from '../src/cards/usage-groups/usage-group.entity';
import { UsageGroupRepository } from '../src/cards/usage-groups/usage-group.repository';

describe('card-api statements', () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await openTestDatabase([CardEntity, UsageGroupEntity]);
  });
  afterAll(() => testDb.close());

  it('sends the card statements checked in under queries/', () => {
    const db = testDb.dataSource;
    const sut = new CardRepository(db, new UsageGroupRepository(db));
    expectQueriesSnapshot(join(__dirname, 'card.repository.sql'), sut.statements);
  });

  it('sends the settings history insert checked in under queries/', () => {
    expectQueriesSnapshot(join(__dirname, 'card-settings-change.repository.sql'), {
      insertChanges: insertChangesSql('$1'),
    });
  });
});
