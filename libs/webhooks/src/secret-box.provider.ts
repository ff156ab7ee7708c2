import { Logger, Provider } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@fincore/platform';
import { SecretBox } from './secret-box';

/**
 * Webhook signing secrets are sealed with WEBHOOK_SECRET_KEY. Production refuses to start without
 * one; elsewhere a published development key keeps the demo working, with a loud warning. The
 * notification API (seals) and the notifier (opens) must agree, hence one rule for both.
 */
export function secretBoxFor(
  config: Pick<AppConfig, 'WEBHOOK_SECRET_KEY' | 'NODE_ENV'>,
  appName: string,
): SecretBox {
  if (config.WEBHOOK_SECRET_KEY) return new SecretBox(config.WEBHOOK_SECRET_KEY);
  if (config.NODE_ENV === 'production') {
    throw new Error(
      'WEBHOOK_SECRET_KEY is required in production (32 bytes, base64 or hex): webhook secrets are encrypted with it',
    );
  }
  new Logger('SecretBox').warn(
    `WEBHOOK_SECRET_KEY is not set: ${appName} uses the PUBLIC development key for webhook secrets. Never use this outside development.`,
  );
  return new SecretBox(SecretBox.developmentKey('webhook-secrets'));
}

export function secretBoxProvider(appName: string): Provider {
  return {
    provide: SecretBox,
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) => secretBoxFor(config, appName),
  };
}
