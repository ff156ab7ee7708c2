import { EVENT_CATALOG, EVENT_TYPES, EventType } from '@fincore/events';
import { eventDataSchemas, pascalCase } from './event-schemas';
import { EXAMPLE_KEY_PAIR, EXAMPLE_SECRET, webhookExample } from './webhook-examples';

type JsonSchema = Record<string, unknown>;
const ref = (path: string) => ({ $ref: path });
const CHANNEL = 'webhookEndpoint';

const DESCRIPTION = `The webhooks fincore's notifier POSTs to the endpoints a tenant registers
(\`POST /api/v1/webhook-endpoints\`), one message per event type the tenant enabled.

Each webhook is signed as Standard Webhooks says: the signed content is
\`{webhook-id}.{webhook-timestamp}.{body}\`, the raw body as sent. \`webhook-signature\` holds one
or more signatures, space-separated: \`v1,<base64 HMAC-SHA256 with the endpoint's whsec_ secret>\`
and \`v1a,<base64 ed25519 signature>\`, verifiable with the endpoint's \`whpk_\` public key
(\`GET /api/v1/webhook-endpoints/{id}/public-key\`). An endpoint's \`signatureSchemes\` says which
are sent; during a secret rotation the previous key signs too. Accept a webhook when any signature
of a scheme you check verifies, and its timestamp is within five minutes of your clock.

\`webhook-id\` is the event id, the same on every retry, replay and manual retry: deduplicate on it.

The messages below are what an endpoint with \`payload: FULL\` (the default) receives. An endpoint with
\`payload: THIN\` receives the same envelope without \`correlationId\`, and of \`data\` only the ids of
what the event is about and \`changedFields\` where the type has them (each type's \`thinDataSchema\`
at \`GET /api/v1/notification-types\`); it fetches the current state through the API.

Answer 2xx to acknowledge. 410 Gone disables the endpoint. 429 or 503 with \`Retry-After\` pauses the
endpoint's deliveries until then. Anything else, a timeout or no answer is retried on the retry
schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h by default).

The examples are signed with the secret \`${EXAMPLE_SECRET}\` and the ed25519 key whose public key is
\`${EXAMPLE_KEY_PAIR.publicKey}\`, at their \`webhook-timestamp\`: a verifier can be tested against them.`;

const HEADERS: JsonSchema = {
  type: 'object',
  required: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
  properties: {
    'webhook-id': {
      type: 'string',
      format: 'uuid',
      description:
        "The event id (the envelope's `id`): the same on every retry and replay; deduplicate on it.",
    },
    'webhook-timestamp': {
      type: 'string',
      pattern: '^[0-9]+$',
      description: 'When this attempt was signed, in seconds since the Unix epoch.',
    },
    'webhook-signature': {
      type: 'string',
      pattern: '^v1a?,[A-Za-z0-9+/]+={0,2}( v1a?,[A-Za-z0-9+/]+={0,2})*$',
      description:
        'Space-separated signatures of `{webhook-id}.{webhook-timestamp}.{body}`: `v1,` HMAC-SHA256 with the endpoint secret, `v1a,` ed25519 with the endpoint key pair.',
    },
    'user-agent': { type: 'string', description: 'fincore-webhooks/<version>' },
    traceparent: {
      type: 'string',
      description: 'W3C Trace Context of the attempt, when the notifier traces.',
    },
    tracestate: { type: 'string', description: 'W3C Trace Context vendor state, when the trace has one.' },
  },
};

const SUBJECT: JsonSchema = {
  type: 'object',
  required: ['type', 'id'],
  additionalProperties: false,
  description: 'What the event is about, e.g. `{type: "person", id: personId}`.',
  properties: { type: { type: 'string' }, id: { type: 'string' } },
};

/** The envelope of one type: the fields every webhook has, with that type's `data`. */
function envelopeSchema(type: EventType, dataSchema: string): JsonSchema {
  return {
    type: 'object',
    required: ['id', 'type', 'tenantCode', 'occurredAt', 'correlationId', 'subject', 'sequence', 'data'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', format: 'uuid', description: 'Event id; equals the webhook-id header.' },
      type: { type: 'string', const: type },
      tenantCode: { type: 'string', description: 'The tenant the event belongs to.' },
      occurredAt: { type: 'string', format: 'date-time' },
      correlationId: {
        type: ['string', 'null'],
        description: 'Request id of the API call that caused the event.',
      },
      subject: ref('#/components/schemas/EventSubject'),
      sequence: {
        type: ['integer', 'null'],
        minimum: 1,
        description:
          "For an endpoint with ordering SUBJECT, the event's number among this endpoint's events about the subject; null otherwise.",
      },
      data: ref(`#/components/schemas/${dataSchema}`),
    },
  };
}

/** The AsyncAPI 3.0 document of fincore's webhooks, built from the event catalog. */
export function asyncApiDocument(version: string): Record<string, unknown> {
  const schemas: Record<string, JsonSchema> = { WebhookHeaders: HEADERS, EventSubject: SUBJECT };
  const messages: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  for (const type of EVENT_TYPES) {
    const data = eventDataSchemas(type);
    const envelope = `${pascalCase(type)}Webhook`;
    Object.assign(schemas, data.schemas, { [envelope]: envelopeSchema(type, data.name) });
    const { headers, payload } = webhookExample(type);
    messages[type] = {
      name: type,
      title: type,
      summary: EVENT_CATALOG[type].description,
      contentType: 'application/json',
      headers: ref('#/components/schemas/WebhookHeaders'),
      payload: ref(`#/components/schemas/${envelope}`),
      examples: [{ name: `${pascalCase(type)}Example`, summary: 'A signed example', headers, payload }],
    };
    operations[`send${pascalCase(type)}`] = {
      action: 'send',
      channel: ref(`#/channels/${CHANNEL}`),
      title: `Send ${type}`,
      summary: `POSTs a ${type} webhook to each endpoint subscribed to it.`,
      messages: [ref(`#/channels/${CHANNEL}/messages/${type}`)],
      security: [
        ref('#/components/securitySchemes/webhookSignatureV1'),
        ref('#/components/securitySchemes/webhookSignatureV1a'),
      ],
      bindings: { http: { method: 'POST' } },
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'fincore webhooks',
      version,
      description: DESCRIPTION,
      license: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
    },
    defaultContentType: 'application/json',
    servers: {
      subscriber: {
        host: '{host}',
        protocol: 'https',
        description:
          "The subscriber's receiver: the URL of a registered webhook endpoint (http is refused outside tests).",
        variables: { host: { description: "Host of the endpoint's URL", default: 'hooks.example.com' } },
      },
    },
    channels: {
      [CHANNEL]: {
        address: null,
        title: 'Webhook endpoint',
        description: 'The URL registered as a webhook endpoint; every event type is POSTed to it.',
        messages: Object.fromEntries(EVENT_TYPES.map((type) => [type, ref(`#/components/messages/${type}`)])),
      },
    },
    operations,
    components: {
      schemas,
      messages,
      securitySchemes: {
        webhookSignatureV1: {
          type: 'symmetricEncryption',
          description:
            "`v1` in `webhook-signature`: HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the base64-decoded part of the endpoint's `whsec_` secret, base64.",
        },
        webhookSignatureV1a: {
          type: 'asymmetricEncryption',
          description:
            "`v1a` in `webhook-signature`: ed25519 (RFC 8032) signature of `{webhook-id}.{webhook-timestamp}.{body}`, base64, verified with the endpoint's `whpk_` public key (base64 of its 32 raw bytes).",
        },
      },
    },
  };
}
