import { answer, api } from '../api';
import { formatTime, Loading, Problem, useAction, useLoad, usePortal } from '../ui';

const CHANNEL = 'WEBHOOK';

/** One switch per event type of the catalog: whether the tenant's events of it become webhooks. */
export function ConfigurationPage() {
  const { t, language, canChange } = usePortal();
  const types = useLoad(() => answer(api.GET('/api/v1/notification-types')), []);
  const configs = useLoad(() => answer(api.GET('/api/v1/notification-config')), []);
  const action = useAction();
  if (!types.value || !configs.value) return <Loading problem={types.problem ?? configs.problem} />;
  const configOf = (code: string) =>
    configs.value?.items.find((c) => c.notificationTypeCode === code && c.channelCode === CHANNEL);
  const toggle = (code: string, on: boolean) =>
    action.run(
      () =>
        answer(
          api.PUT(on ? '/api/v1/notification-config/enable' : '/api/v1/notification-config/disable', {
            body: { notificationTypeCode: code, channelCode: CHANNEL } as never,
          }),
        ),
      configs.reload,
    );
  return (
    <>
      <h1>{t('configuration')}</h1>
      <Problem text={action.problem} />
      <ul className="switches">
        {types.value.items.map((type) => {
          const config = configOf(type.code);
          const on = config?.enabled ?? false;
          return (
            <li key={type.code}>
              {canChange ? (
                <label className="inline">
                  <input
                    type="checkbox"
                    role="switch"
                    checked={on}
                    disabled={action.busy}
                    onChange={(e) => toggle(type.code, e.target.checked)}
                  />
                  {type.code} ({CHANNEL}): {on ? t('enabled') : t('off')}
                </label>
              ) : (
                <span>
                  {type.code} ({CHANNEL}): {on ? t('enabled') : t('off')}
                </span>
              )}
              {on && config?.enabledAt && (
                <span className="hint"> {t('since', { time: formatTime(config.enabledAt, language) })}</span>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}
