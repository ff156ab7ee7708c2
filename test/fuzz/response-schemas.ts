import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { OpenApiDoc, Schema } from './openapi-arbitraries';

/**
 * OpenAPI 3.0 schema → JSON Schema: `nullable: true` becomes "or null" (also for enums, whose
 * values would otherwise refuse null), and local `$ref`s point into the document added as `doc`.
 */
/** Whether a converted property schema has a default (also inside the "or null" it may be wrapped in). */
const hasDefault = (property: Schema | undefined): boolean =>
  !!property && ('default' in property || (!!property.anyOf?.[0] && 'default' in property.anyOf[0]));

function toJsonSchema(schema: unknown, request: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s, request));
  if (!schema || typeof schema !== 'object') return schema;
  const { nullable, example: _example, ...rest } = schema as Schema;
  const converted: Schema = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) converted[key] = `doc${value}`;
    else if (key === 'properties')
      converted[key] = Object.fromEntries(
        Object.entries(value as Schema).map(([k, v]) => [k, toJsonSchema(v, request)]),
      );
    else converted[key] = toJsonSchema(value, request);
  }
  // a property with a default may be left out of a request: the default stands in for it
  if (request && Array.isArray(converted.required) && converted.properties)
    converted.required = converted.required.filter((k: string) => !hasDefault(converted.properties[k]));
  if (!nullable) return converted;
  if (converted.enum && !converted.enum.includes(null)) converted.enum = [...converted.enum, null];
  return { anyOf: [converted, { type: 'null' }] };
}

/** Validates answers (or, with `request`, requests) against the documented schemas of one document. */
export class ResponseSchemas {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly compiled = new Map<Schema, ValidateFunction>();

  constructor(
    doc: OpenApiDoc,
    private readonly request = false,
  ) {
    addFormats(this.ajv);
    this.ajv.addSchema({ components: toJsonSchema(doc.components, request) as Schema }, 'doc');
  }

  /** The validation errors of a body against a documented schema, or undefined when it fits. */
  errors(schema: Schema, body: unknown): string | undefined {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema, this.request) as Schema);
      this.compiled.set(schema, validate);
    }
    if (validate(body)) return undefined;
    return this.ajv.errorsText(validate.errors, { separator: '; ' });
  }
}
