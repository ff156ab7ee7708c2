import { useState } from 'react';
import { answer, api } from '../api';
import { IfCanChange, Problem, useAction, usePortal } from '../ui';

/** Sends a WEBHOOK_TEST event to one endpoint, and says when it is on its way. */
export function SendTest({ endpointId }: { endpointId: string }) {
  const { t } = usePortal();
  const action = useAction();
  const [sent, setSent] = useState(false);
  return (
    <IfCanChange>
      <button
        type="button"
        disabled={action.busy || !endpointId}
        onClick={() =>
          action.run(
            () =>
              answer(
                api.POST('/api/v1/webhook-endpoints/{endpointId}/test', { params: { path: { endpointId } } }),
              ),
            () => setSent(true),
          )
        }
      >
        {t('sendTest')}
      </button>
      <Problem text={action.problem} />
      {sent && <p role="status">{t('testSent')}</p>}
    </IfCanChange>
  );
}
