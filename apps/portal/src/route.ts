/** The portal's pages, addressed by the URL's fragment so the server serves one document. */
export type Route =
  | { page: 'endpoints' }
  | { page: 'endpoint'; id: string }
  | { page: 'deliveries'; endpointId?: string }
  | { page: 'delivery'; id: string }
  | { page: 'event-types' }
  | { page: 'configuration' };

const ID = /^[0-9a-f-]{36}$/i;

export function parseRoute(hash: string): Route {
  const [path, query = ''] = hash.replace(/^#\/?/, '').split('?');
  const [section, id] = path.split('/');
  const params = new URLSearchParams(query);
  if (section === 'endpoints' && id && ID.test(id)) return { page: 'endpoint', id };
  if (section === 'deliveries' && id && ID.test(id)) return { page: 'delivery', id };
  if (section === 'deliveries') {
    const endpointId = params.get('endpointId');
    return endpointId && ID.test(endpointId) ? { page: 'deliveries', endpointId } : { page: 'deliveries' };
  }
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
    case 'deliveries':
      return route.endpointId ? `#/deliveries?endpointId=${route.endpointId}` : '#/deliveries';
    default:
      return `#/${route.page}`;
  }
}

/** The navigation entry a page belongs to: a single endpoint or delivery under its list. */
export function sectionOf(route: Route): Route['page'] {
  if (route.page === 'endpoint') return 'endpoints';
  if (route.page === 'delivery') return 'deliveries';
  return route.page;
}
