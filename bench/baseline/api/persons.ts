import { randomUUID } from 'node:crypto';
import { FastifyInstance } from 'fastify';
import { authenticate, inTransaction, isObject, onlyKeys, publish, Refusal } from './shared';

const PERSON_FIELDS = ['firstName', 'lastName', 'email', 'phone'] as const;
const COLUMNS: Record<(typeof PERSON_FIELDS)[number], string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phone: 'phone',
};

/** PATCH /api/v1/persons/:personId. */
export function personsRoute(app: FastifyInstance): void {
  app.patch<{ Params: { personId: string } }>('/api/v1/persons/:personId', async (request, reply) => {
    const principal = await authenticate(request, reply, 'persons:write');
    if (!principal) return reply;
    const body = request.body;
    if (
      !isObject(body) ||
      !onlyKeys(body, [...PERSON_FIELDS]) ||
      !Object.values(body).every((v) => v === null || (typeof v === 'string' && v.length <= 254))
    ) {
      return reply.code(400).send({ code: 'validation_failed' });
    }
    try {
      const result = await inTransaction(async (c) => {
        const { rows } = await c.query(
          `SELECT first_name, last_name, email, phone FROM baseline.persons WHERE tenant_id = $1 AND person_id = $2 FOR UPDATE`,
          [principal.tenantId, request.params.personId],
        );
        if (!rows.length) throw new Refusal(404, 'person_not_found');
        const before = rows[0];
        const changed = PERSON_FIELDS.filter((f) => f in body && body[f] !== before[COLUMNS[f]]);
        const person = {
          personId: request.params.personId,
          ...Object.fromEntries(PERSON_FIELDS.map((f) => [f, f in body ? body[f] : before[COLUMNS[f]]])),
        };
        if (!changed.length) return { person, event: null };
        await c.query(
          `UPDATE baseline.persons SET ${changed.map((f, i) => `${COLUMNS[f]} = $${i + 3}`).join(', ')}, updated_at = now() WHERE tenant_id = $1 AND person_id = $2`,
          [principal.tenantId, request.params.personId, ...changed.map((f) => body[f])],
        );
        const event = {
          id: randomUUID(),
          occurredAt: new Date(),
          data: { personId: request.params.personId, changedFields: changed, person },
        };
        await c.query(
          `INSERT INTO baseline.outbox (id, type, tenant_code, occurred_at, data) VALUES ($1, 'PERSON_UPDATED', $2, $3, $4)`,
          [event.id, principal.tenantCode, event.occurredAt, JSON.stringify(event.data)],
        );
        return { person, event };
      });
      if (result.event)
        publish(
          'PERSON_UPDATED',
          principal.tenantCode,
          result.event.id,
          result.event.occurredAt,
          result.event.data,
        );
      return result.person;
    } catch (error) {
      if (error instanceof Refusal) return reply.code(error.status).send({ code: error.code });
      throw error;
    }
  });
}
