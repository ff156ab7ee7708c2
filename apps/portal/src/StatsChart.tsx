import { useState } from 'react';
import { answer, api } from './api';
import { peakOf, stackedBars } from './chart';
import { Loading, useLoad, usePortal } from './ui';

const WIDTH = 720;
const HEIGHT = 160;

/** An endpoint's deliveries per hour, stacked by outcome, in plain SVG. */
export function StatsChart({ endpointId }: { endpointId: string }) {
  const { t } = usePortal();
  const [window, setWindow] = useState<'24h' | '7d'>('24h');
  const { value, problem } = useLoad(
    () =>
      answer(
        api.GET('/api/v1/webhook-endpoints/{endpointId}/stats', {
          params: { path: { endpointId }, query: { window } },
        }),
      ),
    [endpointId, window],
  );
  return (
    <section aria-labelledby="stats-title">
      <h2 id="stats-title">{t('deliveries')}</h2>
      <div role="group" className="toggle">
        {(['24h', '7d'] as const).map((w) => (
          <button key={w} type="button" aria-pressed={window === w} onClick={() => setWindow(w)}>
            {w === '24h' ? t('last24h') : t('last7d')}
          </button>
        ))}
      </div>
      {!value ? (
        <Loading problem={problem} />
      ) : (
        <figure>
          <svg
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            role="img"
            aria-label={`${t('succeeded')} ${value.total.succeeded}, ${t('failed')} ${value.total.failed}, ${t('pending')} ${value.total.pending}`}
            className="chart"
          >
            <line x1={0} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="axis" />
            {stackedBars(value.hours, WIDTH, HEIGHT).map((s, i) => (
              <rect
                key={i}
                x={s.x}
                y={s.y}
                width={s.width}
                height={s.height}
                className={`bar-${s.outcome}`}
              />
            ))}
          </svg>
          <figcaption>
            <span className="legend legend-succeeded">
              {t('succeeded')}: {value.total.succeeded}
            </span>
            <span className="legend legend-failed">
              {t('failed')}: {value.total.failed}
            </span>
            <span className="legend legend-pending">
              {t('pending')}: {value.total.pending}
            </span>
            <span> · max {peakOf(value.hours)}/h</span>
          </figcaption>
        </figure>
      )}
    </section>
  );
}
