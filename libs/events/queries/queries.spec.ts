import { join } from 'node:path';
import { expectQueriesSnapshot } from '@test/support/query-snapshot';
import { outboxInsertWhen } from '../src/outbox-insert';

describe('events statements', () => {
  it('joins the outbox insert checked in under queries/ to a one-statement change', () => {
    expectQueriesSnapshot(join(__dirname, 'outbox.repository.sql'), {
      outboxInsertWhen: outboxInsertWhen('guard', 1),
    });
  });
});
