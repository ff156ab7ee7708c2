import { useEffect, useMemo, useState } from 'react';
import { answer, api } from './api';
import { pickLanguage, translator } from './i18n';
import { hrefOf, parseRoute, sectionOf, type Route } from './route';
import { Loading, Portal, Problem, useAction } from './ui';
import { ConfigurationPage } from './pages/Configuration';
import { DeliveriesPage } from './pages/Deliveries';
import { DeliveryDetailPage } from './pages/DeliveryDetail';
import { EndpointDetailPage } from './pages/EndpointDetail';
import { EndpointsPage } from './pages/Endpoints';
import { EventTypesPage } from './pages/EventTypes';

const NAV: Array<{ route: Route; key: 'endpoints' | 'deliveries' | 'eventTypes' | 'configuration' }> = [
  { route: { page: 'endpoints' }, key: 'endpoints' },
  { route: { page: 'deliveries' }, key: 'deliveries' },
  { route: { page: 'event-types' }, key: 'eventTypes' },
  { route: { page: 'configuration' }, key: 'configuration' },
];

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return route;
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'endpoint':
      return <EndpointDetailPage id={route.id} />;
    case 'deliveries':
      return <DeliveriesPage filter={route} />;
    case 'delivery':
      return <DeliveryDetailPage id={route.id} />;
    case 'event-types':
      return <EventTypesPage />;
    case 'configuration':
      return <ConfigurationPage />;
    default:
      return <EndpointsPage />;
  }
}

export function App() {
  const language = pickLanguage(navigator.languages);
  const t = useMemo(() => translator(language), [language]);
  const route = useRoute();
  const [caller, setCaller] = useState<{ tenantCode: string; canChange: boolean }>();
  const [problem, setProblem] = useState<string>();
  const [signedOut, setSignedOut] = useState(false);
  const signOut = useAction();
  useEffect(() => {
    document.documentElement.lang = language;
    answer(api.GET('/api/v1/portal-sessions/current')).then(
      setCaller,
      (e: { status?: number; message: string }) =>
        setProblem(e.status === 401 ? t('sessionEnded') : e.message),
    );
  }, [language, t]);
  const context = useMemo(
    () => ({ t, language, canChange: caller?.canChange ?? false }),
    [t, language, caller],
  );
  if (signedOut)
    return (
      <>
        <header>
          <p className="brand">fincore · {t('title')}</p>
        </header>
        <main>
          <h1>{t('signedOutTitle')}</h1>
          <p>{t('signedOut')}</p>
        </main>
      </>
    );
  return (
    <Portal.Provider value={context}>
      <header>
        <p className="brand">
          fincore · {t('title')} {caller && <span>· {caller.tenantCode}</span>}
          {caller && !caller.canChange && <span className="badge badge-pending">{t('readOnly')}</span>}
        </p>
        <nav aria-label={t('title')}>
          {NAV.map(({ route: r, key }) => (
            <a key={key} href={hrefOf(r)} aria-current={r.page === sectionOf(route) ? 'page' : undefined}>
              {t(key)}
            </a>
          ))}
        </nav>
        {caller && (
          <button
            type="button"
            className="sign-out"
            disabled={signOut.busy}
            onClick={() =>
              signOut.run(
                () => answer(api.DELETE('/api/v1/portal-sessions/current')),
                () => setSignedOut(true),
              )
            }
          >
            {t('signOut')}
          </button>
        )}
        <Problem text={signOut.problem} />
      </header>
      <main>{caller ? <Page route={route} /> : <Loading problem={problem} />}</main>
    </Portal.Provider>
  );
}
