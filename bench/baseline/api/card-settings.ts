import { randomUUID } from 'node:crypto';
import { FastifyInstance } from 'fastify';
import { SERVICE_CODES, VISA_ONLY } from '../schema';
import { authenticate, inTransaction, isObject, onlyKeys, publish, Refusal } from './shared';

interface Flag {
  serviceCode: string;
  allowed: boolean;
}

/** POST /api/v1/cards/:cardId/settings/change. */
export function cardSettingsRoute(app: FastifyInstance): void {
  app.post<{ Params: { cardId: string } }>(
    '/api/v1/cards/:cardId/settings/change',
    async (request, reply) => {
      const principal = await authenticate(request, reply, 'cards:write');
      if (!principal) return reply;
      const tenantHeader = request.headers['x-tenant-code'];
      if (typeof tenantHeader !== 'string') return reply.code(400).send({ code: 'tenant_header_required' });
      if (tenantHeader !== principal.tenantCode) return reply.code(403).send({ code: 'tenant_mismatch' });
      const body = request.body;
      if (
        !isObject(body) ||
        !onlyKeys(body, ['authorisationTypes', 'renewable', 'xpaysAllowed']) ||
        !Array.isArray(body.authorisationTypes) ||
        body.authorisationTypes.length > 64 ||
        !body.authorisationTypes.every(
          (e) =>
            isObject(e) &&
            onlyKeys(e, ['serviceCode', 'allowed']) &&
            typeof e.serviceCode === 'string' &&
            typeof e.allowed === 'boolean',
        ) ||
        typeof body.renewable !== 'boolean' ||
        typeof body.xpaysAllowed !== 'boolean'
      ) {
        return reply.code(400).send({ code: 'validation_failed' });
      }
      const requested = body.authorisationTypes as Flag[];
      const codes = requested.map((e) => e.serviceCode);
      if (codes.some((c) => !SERVICE_CODES.includes(c)))
        return reply.code(400).send({ code: 'unknown_service_code' });
      if (new Set(codes).size !== codes.length)
        return reply.code(400).send({ code: 'duplicate_service_code' });

      try {
        const settings = await inTransaction(async (c) => {
          const { rows } = await c.query(
            `SELECT c.network, c.status, c.authorisation_types, c.renewable, c.xpays_allowed, c.settings_version, g.allowed_service_codes
             FROM baseline.cards c JOIN baseline.usage_groups g ON g.tenant_id = c.tenant_id AND g.code = c.usage_group
            WHERE c.tenant_id = $1 AND c.card_id = $2 FOR UPDATE OF c`,
            [principal.tenantId, request.params.cardId],
          );
          const card = rows[0];
          if (!card) throw new Refusal(404, 'card_not_found');
          if (card.status === 'CLOSED') throw new Refusal(409, 'card_closed');
          const allowedByGroup: string[] = card.allowed_service_codes;
          if (card.network !== 'VISA' && codes.some((c) => VISA_ONLY.has(c)))
            throw new Refusal(422, 'service_code_not_supported_by_network');
          if (codes.some((c) => !allowedByGroup.includes(c)))
            throw new Refusal(422, 'service_code_not_in_usage_group');
          if (allowedByGroup.some((c) => !codes.includes(c))) throw new Refusal(422, 'service_codes_missing');

          const order = (flags: Flag[]) =>
            SERVICE_CODES.filter((s) => allowedByGroup.includes(s)).map((s) => ({
              serviceCode: s,
              allowed: flags.find((f) => f.serviceCode === s)?.allowed ?? false,
            }));
          const previous = {
            authorisationTypes: order(card.authorisation_types),
            renewable: card.renewable,
            xpaysAllowed: card.xpays_allowed,
          };
          const current = {
            authorisationTypes: order(requested),
            renewable: body.renewable as boolean,
            xpaysAllowed: body.xpaysAllowed as boolean,
          };
          const changedFields = [
            ...current.authorisationTypes
              .filter((f, i) => f.allowed !== previous.authorisationTypes[i].allowed)
              .map((f) => `authorisationTypes.${f.serviceCode}`),
            ...(current.renewable !== previous.renewable ? ['renewable'] : []),
            ...(current.xpaysAllowed !== previous.xpaysAllowed ? ['xpaysAllowed'] : []),
          ];
          if (!changedFields.length) return { current, event: null };
          await c.query(
            `UPDATE baseline.cards SET authorisation_types = $3, renewable = $4, xpays_allowed = $5, settings_version = settings_version + 1, settings_changed_at = now()
            WHERE tenant_id = $1 AND card_id = $2`,
            [
              principal.tenantId,
              request.params.cardId,
              JSON.stringify(current.authorisationTypes),
              current.renewable,
              current.xpaysAllowed,
            ],
          );
          const event = {
            id: randomUUID(),
            occurredAt: new Date(),
            data: { cardId: request.params.cardId, changedFields, previous, current },
          };
          await c.query(
            `INSERT INTO baseline.outbox (id, type, tenant_code, occurred_at, data) VALUES ($1, 'CARD_SETTINGS_CHANGED', $2, $3, $4)`,
            [event.id, principal.tenantCode, event.occurredAt, JSON.stringify(event.data)],
          );
          return { current, event };
        });
        if (settings.event)
          publish(
            'CARD_SETTINGS_CHANGED',
            principal.tenantCode,
            settings.event.id,
            settings.event.occurredAt,
            settings.event.data,
          );
        return settings.current;
      } catch (error) {
        if (error instanceof Refusal) return reply.code(error.status).send({ code: error.code });
        throw error;
      }
    },
  );
}
