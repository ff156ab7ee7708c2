import { DiagnosticSeverity, Parser } from '@asyncapi/parser';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { EVENT_TYPES } from '@fincore/events';
import { verifyWebhook } from '@fincore/webhooks';
import { ReceivedWebhook, verifiesV1a } from '@test/support/webhook-receiver';
import { asyncApiDocument } from './asyncapi-document';
import { EXAMPLE_KEY_PAIR, EXAMPLE_SECRET, webhookExample } from './webhook-examples';

interface Message {
  headers: { $ref: string };
  payload: { $ref: string };
  examples: Array<{ headers: Record<string, string>; payload: { id: string; data: unknown } }>;
}

const sut = asyncApiDocument('1.2.3');
const messages = (sut.components as { messages: Record<string, Message> }).messages;

/** A subscriber's `v1a` check of the example, with node:crypto and the published key alone. */
const verifiesExampleV1a = (headers: Record<string, string>, body: string) =>
  verifiesV1a({ headers, body } as unknown as ReceivedWebhook, EXAMPLE_KEY_PAIR.publicKey);

describe('asyncApiDocument', () => {
  let parsed: Awaited<ReturnType<Parser['parse']>>;
  beforeAll(async () => {
    parsed = await new Parser().parse(JSON.stringify(sut));
  });

  it('is a valid AsyncAPI 3.0 document: no error and no warning from the AsyncAPI parser', () => {
    const said = (severities: number[]) =>
      parsed.diagnostics
        .filter((d) => severities.includes(d.severity))
        .map((d) => `${d.code} ${d.path.join('.')}: ${d.message}`);
    expect(said([DiagnosticSeverity.Error, DiagnosticSeverity.Warning])).toEqual([]);
    // The one remark: 3.1 exists. 3.0 is kept for the tools that read no 3.1 yet.
    expect(parsed.diagnostics.map((d) => d.code)).toEqual(['asyncapi-latest-version']);
    expect(parsed.document?.version()).toBe('3.0.0');
    expect(parsed.document?.info().version()).toBe('1.2.3');
  });

  it('is held to the specification: a document with an operation on a missing channel is refused', async () => {
    const broken = { ...sut, channels: {} };
    const { diagnostics } = await new Parser().parse(JSON.stringify(broken));
    expect(diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).length).toBeGreaterThan(0);
  });

  it('has a message and an operation for every type of the event catalog, and nothing else', () => {
    expect(Object.keys(messages).sort()).toEqual([...EVENT_TYPES].sort());
    const operations = parsed.document!.operations().all();
    expect(operations.map((o) => o.messages().all()[0].name())).toEqual(EVENT_TYPES);
    expect(operations.every((o) => o.action() === 'send')).toBe(true);
  });

  it('describes both signature schemes the notifier sends', () => {
    const schemes = (sut.components as { securitySchemes: Record<string, { description: string }> })
      .securitySchemes;
    expect(Object.values(schemes).map((s) => s.description.slice(0, 6))).toEqual(['`v1` i', '`v1a` ']);
  });

  describe.each(EVENT_TYPES)('%s', (type) => {
    const ajv = addFormats(new Ajv({ allErrors: true, strictTypes: false }));
    // The document's own fields are no schema keywords: known, and left alone.
    ajv.addVocabulary(Object.keys(sut));
    ajv.addSchema(sut, 'asyncapi');
    const [example] = messages[type].examples;
    const schemaAt = (pointer: string) => ajv.getSchema(`asyncapi${pointer}`)!;

    it('has an example payload its own payload schema accepts', () => {
      const validate = schemaAt(messages[type].payload.$ref);
      expect(validate(example.payload) || validate.errors).toBe(true);
      // The schema bites: the same example with a field of data gone is refused.
      expect(validate({ ...example.payload, data: {} })).toBe(false);
    });

    it('has example headers its header schema accepts, with signatures of both schemes that verify', () => {
      const validate = schemaAt(messages[type].headers.$ref);
      expect(validate(example.headers) || validate.errors).toBe(true);
      expect(example.headers['webhook-id']).toBe(example.payload.id);
      const { body } = webhookExample(type);
      expect(JSON.parse(body)).toEqual(example.payload);
      const now = new Date(Number(example.headers['webhook-timestamp']) * 1000);
      expect(() =>
        verifyWebhook({ secret: EXAMPLE_SECRET, body, headers: example.headers, now }),
      ).not.toThrow();
      expect(verifiesExampleV1a(example.headers, body)).toBe(true);
      expect(verifiesExampleV1a(example.headers, `${body} `)).toBe(false);
    });
  });
});
