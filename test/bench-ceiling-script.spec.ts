import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ceilingScript as sut, snapshotStatement } from '../bench/support/ceiling-script';

const snapshot = (file: string) => readFileSync(join(__dirname, '..', file), 'utf8');
/** A statement's text with its parameters blanked, to compare what pgbench sends with the snapshot. */
const shape = (sql: string) => sql.replace(/\$\d+/g, '?');

describe('ceilingScript', () => {
  it("sends the repositories' own statements, every parameter given", () => {
    const script = sut(2);
    expect(script).not.toMatch(/\$\d/);
    for (const [file, method] of [
      ['apps/credentials-api/queries/person.repository.sql', 'updateProfileIfUnchanged'],
      ['libs/notifications/queries/webhook-delivery-fan-out.repository.sql', 'claimEventAndCreateDeliveries'],
      ['libs/notifications/queries/webhook-delivery-attempt.repository.sql', 'recordSucceededAttempts'],
    ]) {
      const text = snapshot(file).split(`-- ${method}\n`)[1].split(/;\n/)[0];
      // Everything between two parameters is the snapshot's text, unchanged.
      const pieces = shape(text)
        .split('?')
        .filter((piece) => piece.length > 20);
      for (const piece of pieces) expect(script).toContain(piece);
    }
  });

  it('claims and records each event of the transaction once, the notifier without waiting for the flush', () => {
    const script = sut(3);
    expect(script.match(/\\gset f\d_/g)).toEqual(['\\gset f1_', '\\gset f2_', '\\gset f3_']);
    expect(script).toContain('ARRAY[:f1_id, :f2_id, :f3_id]::uuid[]');
    expect(script.indexOf('SET synchronous_commit = off;')).toBeLessThan(script.indexOf('WITH event AS'));
    expect(script.indexOf('SET synchronous_commit = off;')).toBeGreaterThan(script.lastIndexOf('WITH p AS'));
  });

  it('refuses a statement the snapshot lacks, or a parameter left without a value', () => {
    const file = 'apps/credentials-api/queries/person.repository.sql';
    expect(() => snapshotStatement(file, 'noSuchMethod', {})).toThrow('has no statement noSuchMethod');
    expect(() => snapshotStatement(file, 'findByPersonId', { 1: ':tenant_id' })).toThrow('no value for $2');
  });
});
