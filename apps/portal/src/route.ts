/** The Deliveries page's filters, as its URL holds them; since and until are UTC instants. */
export interface DeliveryFilter {
  status?: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  type?: string;
  endpointId?: string;
  /** The webhook-id a receiver saw: the event's id. */
  eventId?: string;
  since?: string;
  until?: string;
}

/** The portal's pages, addressed by the URL's fragment so the server serves one document. */
export type Route =
  | { page: 'endpoints' }
  | { page: 'endpoint'; id: string }
  | ({ page: 'deliveries' } & DeliveryFilter)
  | { page: 'delivery'; id: string }
  | { page: 'event-types' }
  | { page: 'configuration' };

const ID = /^[0-9a-f-]{36}$/i;
export const isEntityId = (v: string) => ID.test(v);
/** What toISOString writes, the only form the portal puts in its URLs; a day the calendar lacks is none. */
const UTC_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const isInstant = (v: string) =>
  UTC_INSTANT.test(v) && !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().startsWith(v.slice(0, 19));

/** Each filter in the URL, and what it must look like to be taken; anything else is left out. */
const FILTERS: { [K in keyof DeliveryFilter]-?: (value: string) => boolean } = {
  status: (v) => v === 'PENDING' || v === 'SUCCEEDED' || v === 'FAILED',
  type: (v) => /^[A-Z][A-Z0-9_]{0,99}$/.test(v),
  endpointId: (v) => ID.test(v),
  eventId: (v) => ID.test(v),
  since: isInstant,
  until: isInstant,
};
const FILTER_KEYS = Object.keys(FILTERS) as Array<keyof DeliveryFilter>;

function filterOf(params: URLSearchParams): DeliveryFilter {
  const filter: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value && FILTERS[key](value)) filter[key] = value;
  }
  return filter;
}

export function parseRoute(hash: string): Route {
  const [path, query = ''] = hash.replace(/^#\/?/, '').split('?');
  const [section, id] = path.split('/');
  if (section === 'endpoints' && id && ID.test(id)) return { page: 'endpoint', id };
  if (section === 'deliveries' && id && ID.test(id)) return { page: 'delivery', id };
  if (section === 'deliveries') return { page: 'deliveries', ...filterOf(new URLSearchParams(query)) };
  if (section === 'event-types') return { page: 'event-types' };
  if (section === 'configuration') return { page: 'configuration' };
  return { page: 'endpoints' };
}

export function hrefOf(route: Route): string {
  switch (route.page) {
    case 'endpoint':
      return `#/endpoints/${route.id}`;
    case 'delivery':
      return `#/deliveries/${route.id}`;
    case 'deliveries': {
      const params = new URLSearchParams();
      for (const key of FILTER_KEYS) if (route[key]) params.set(key, route[key]);
      const query = params.toString();
      return query ? `#/deliveries?${query}` : '#/deliveries';
    }
    default:
      return `#/${route.page}`;
  }
}

/** The filter with a change applied: an empty value drops that filter. */
export function withFilter(filter: DeliveryFilter, change: Partial<DeliveryFilter>): DeliveryFilter {
  const merged: Record<string, string | undefined> = { ...filter, ...change };
  return Object.fromEntries(
    FILTER_KEYS.filter((key) => merged[key]).map((key) => [key, merged[key]]),
  ) as DeliveryFilter;
}

/** The navigation entry a page belongs to: a single endpoint or delivery under its list. */
export function sectionOf(route: Route): Route['page'] {
  if (route.page === 'endpoint') return 'endpoints';
  if (route.page === 'delivery') return 'deliveries';
  return route.page;
}
