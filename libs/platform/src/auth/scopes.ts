/** Every scope a token can carry; routes declare what they need with @ApiAuth(...). */
export const SCOPES = {
  'persons:read': 'Read persons',
  'persons:write': 'Create and update persons and set their credentials',
  'persons:erase': 'Erase persons: their personal data everywhere fincore keeps it, for good',
  'credentials:write': 'Invalidate credentials',
  'credentials:authenticate': 'Authenticate persons with their credentials',
  'cards:read': 'Read cards, usage groups and settings',
  'cards:write': 'Provision cards and usage groups, change card settings',
  'fees:quote': 'Quote transaction fees',
  'pricing:read': 'Read accounts, price lists, catalogs and exchange rates',
  'pricing:write': 'Manage accounts, price lists, catalogs and exchange rates',
  'notifications:read': 'Read notification configuration, webhook endpoints and deliveries',
  'notifications:write': 'Change notification configuration, webhook endpoints and deliveries',
  'portal:create': 'Create links that open the subscriber portal',
} as const;

export type Scope = keyof typeof SCOPES;
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.prototype.hasOwnProperty.call(SCOPES, value);
}
