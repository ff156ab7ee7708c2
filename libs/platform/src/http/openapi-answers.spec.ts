import type { OpenAPIObject } from '@nestjs/swagger';
import { documentCommonAnswers as sut } from './openapi-answers';

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

function documentWith(path: string, method: string, operation: object, schemas: object = {}): OpenAPIObject {
  return {
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: { [path]: { [method]: operation } },
    components: { schemas },
  } as OpenAPIObject;
}

describe('documentCommonAnswers', () => {
  it("adds the platform's answers to an /api/v1 operation that takes a body", () => {
    const doc = documentWith('/api/v1/cards', 'post', {
      requestBody: { content: { 'application/json': { schema: {} } } },
      responses: { '201': { description: '' } },
    });
    sut(doc);
    const responses = doc.paths['/api/v1/cards'].post!.responses as Record<string, { content?: unknown }>;
    expect(Object.keys(responses).sort()).toEqual(['201', '400', '401', '413', '415', '429', '431', '503']);
    expect(responses['503'].content).toEqual(problem);
  });

  it('marks a body optional where its schema has a default, and only there', () => {
    const bodyOf = (schema: object) => ({
      requestBody: { required: true, content: { 'application/json': { schema } } },
      responses: { '201': { description: '' } },
    });
    const doc = documentWith('/api/v1/portal-sessions', 'post', bodyOf({ default: {} }));
    doc.paths['/api/v1/cards'] = { post: bodyOf({ type: 'object' }) } as never;
    sut(doc);
    expect(doc.paths['/api/v1/portal-sessions'].post!.requestBody).toMatchObject({ required: false });
    expect(doc.paths['/api/v1/cards'].post!.requestBody).toMatchObject({ required: true });
  });

  it('adds 414 where the path has parameters and leaves 404 to the controller', () => {
    const doc = documentWith('/api/v1/cards/{cardId}', 'get', {
      parameters: [{ name: 'cardId', in: 'path', required: true }],
      responses: { '200': { description: 'The card' } },
    });
    sut(doc);
    const responses = doc.paths['/api/v1/cards/{cardId}'].get!.responses;
    expect(responses['414']).toBeDefined();
    expect(responses['404']).toBeUndefined();
    expect(responses['413']).toBeUndefined();
  });

  it("adds the platform's codes to a status the controller documents, once", () => {
    const operation = {
      parameters: [{ name: 'cardId', in: 'path', required: true }],
      responses: { '400': { description: 'unknown_service_code', content: problem } },
    };
    const doc = documentWith('/api/v1/cards/{cardId}', 'get', operation);
    sut(doc);
    sut(doc);
    const description = (doc.paths['/api/v1/cards/{cardId}'].get!.responses['400'] as { description: string })
      .description;
    expect(description).toBe(
      'unknown_service_code; malformed_request, validation_failed (errors[] names each field), malformed_url',
    );
  });

  it('lists the scopes @ApiAuth recorded in the description', () => {
    const doc = documentWith('/api/v1/cards', 'get', {
      description: 'Lists cards.',
      'x-required-scopes': ['cards:read'],
      responses: { '200': { description: 'Cards' } },
    });
    sut(doc);
    expect(doc.paths['/api/v1/cards'].get!.description).toBe('Lists cards.\n\nToken scopes: `cards:read`.');
  });

  it('keeps one parameter per header name, the documented one', () => {
    const doc = documentWith('/api/v1/service-codes', 'get', {
      parameters: [
        { name: 'accept-language', in: 'header', required: true },
        { name: 'Accept-Language', in: 'header', required: false, description: 'Language' },
      ],
      responses: { '200': { description: 'Codes' } },
    });
    sut(doc);
    expect(doc.paths['/api/v1/service-codes'].get!.parameters).toEqual([
      { name: 'Accept-Language', in: 'header', required: false, description: 'Language' },
    ]);
  });

  it('describes an answer that has no description by its status and schema', () => {
    const doc = documentWith('/health', 'get', {
      responses: {
        '200': {
          description: '',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } },
        },
      },
    });
    sut(doc);
    expect(doc.paths['/health'].get!.responses['200']).toMatchObject({ description: 'OK: Health' });
    expect(Object.keys(doc.paths['/health'].get!.responses)).toEqual(['200']);
  });

  it('lets a nullable enum take null', () => {
    const doc = documentWith(
      '/health',
      'get',
      { responses: {} },
      {
        Fee: { type: 'object', properties: { mode: { type: 'string', enum: ['VOLUME'], nullable: true } } },
      },
    );
    sut(doc);
    expect(doc.components!.schemas!.Fee).toMatchObject({ properties: { mode: { enum: ['VOLUME', null] } } });
  });
});
