import { useState } from 'react';
import { answer, api } from '../api';
import { hrefOf } from '../route';
import { localInputOf, replayWindowOf } from '../time-window';
import { formatTime, IfCanChange, Problem, useAction, usePortal } from '../ui';

type Window = { since: string; until?: string };
const DAY_MS = 24 * 3600 * 1000;

/**
 * Sends an endpoint's failed deliveries of a time window again, after a confirmation that names
 * the window; says how many went, and links to them.
 */
export function Replay({ endpointId }: { endpointId: string }) {
  const { t, language } = usePortal();
  const action = useAction();
  const [from, setFrom] = useState(() => localInputOf(new Date(Date.now() - DAY_MS).toISOString()));
  const [to, setTo] = useState('');
  const [asked, setAsked] = useState<Window>();
  const [invalid, setInvalid] = useState<string>();
  const [done, setDone] = useState<{ window: Window; replayed: number }>();

  const ask = () => {
    const picked = replayWindowOf(from, to);
    setDone(undefined);
    if ('problem' in picked) return setInvalid(t(picked.problem));
    setInvalid(undefined);
    setAsked(picked.body);
  };
  const replay = (window: Window) =>
    action.run(
      async () => {
        const result = await answer(
          api.POST('/api/v1/webhook-endpoints/{endpointId}/replay', {
            params: { path: { endpointId } },
            body: window,
          }),
        );
        setDone({ window, replayed: result.replayed });
      },
      () => setAsked(undefined),
    );

  return (
    <IfCanChange>
      <section aria-labelledby="replay-title">
        <h2 id="replay-title">{t('replayTitle')}</h2>
        <p>{t('replayHint')}</p>
        <form
          className="filters"
          onSubmit={(e) => {
            e.preventDefault();
            ask();
          }}
        >
          <label>
            {t('from')}
            <input type="datetime-local" required value={from} onChange={(e) => setFrom(e.target.value)} />
          </label>
          <label>
            {t('to')}
            <input type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
          </label>
          <button type="submit" disabled={action.busy}>
            {t('replayTitle')}
          </button>
        </form>
        <Problem text={invalid ?? action.problem} />
        {asked && (
          <div role="group" aria-labelledby="replay-question" className="actions">
            <p id="replay-question">
              {t('confirmReplay', {
                from: formatTime(asked.since, language),
                to: asked.until ? formatTime(asked.until, language) : t('replayNow'),
              })}
            </p>
            <button type="button" disabled={action.busy} onClick={() => void replay(asked)}>
              {t('replayConfirm')}
            </button>
            <button type="button" onClick={() => setAsked(undefined)}>
              {t('cancel')}
            </button>
          </div>
        )}
        {done && (
          <p role="status">
            {t('replayed', { count: done.replayed })}{' '}
            <a href={hrefOf({ page: 'deliveries', endpointId, ...done.window })}>{t('showReplayed')}</a>
          </p>
        )}
      </section>
    </IfCanChange>
  );
}
