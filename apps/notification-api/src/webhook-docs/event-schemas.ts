import { z } from 'zod';
import { EVENT_CATALOG, EventType } from '@fincore/events';

type JsonSchema = Record<string, unknown>;
const COMPONENT_SCHEMAS = '#/components/schemas/';

/** `CARD_SETTINGS_CHANGED` → `CardSettingsChanged`. */
export const pascalCase = (type: string) =>
  type
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/**
 * The JSON Schema (draft 7, the base of AsyncAPI's schema format) of an event type's `data`, and
 * every schema it refers to, named for `components.schemas`: the schema's own id where the catalog
 * gives one, `<Type>Data` otherwise.
 */
export function eventDataSchemas(type: EventType): { name: string; schemas: Record<string, JsonSchema> } {
  const generated = z.toJSONSchema(EVENT_CATALOG[type].schema, { target: 'draft-7' }) as JsonSchema;
  // Refs point into components.schemas, where the definitions go.
  const {
    $schema: _dialect,
    definitions = {},
    ...root
  } = JSON.parse(
    JSON.stringify(generated).replaceAll('"#/definitions/', `"${COMPONENT_SCHEMAS}`),
  ) as JsonSchema & { definitions?: Record<string, JsonSchema> };
  const ref = typeof root.$ref === 'string' && Object.keys(root).length === 1 ? root.$ref : undefined;
  if (ref?.startsWith(COMPONENT_SCHEMAS))
    return { name: ref.slice(COMPONENT_SCHEMAS.length), schemas: definitions };
  const name = `${pascalCase(type)}Data`;
  return { name, schemas: { ...definitions, [name]: root } };
}
