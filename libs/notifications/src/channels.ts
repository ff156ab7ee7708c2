/**
 * Channels a notification can travel through. All are known so that a caller asking for EMAIL
 * learns it is not available yet (422) rather than that it does not exist (400).
 */
export const ChannelCode = {
  Webhook: 'WEBHOOK',
  Email: 'EMAIL',
  Sms: 'SMS',
  Push: 'PUSH',
} as const;
export type ChannelCode = (typeof ChannelCode)[keyof typeof ChannelCode];
export const CHANNEL_CODES = Object.values(ChannelCode);

export const IMPLEMENTED_CHANNELS: readonly ChannelCode[] = [ChannelCode.Webhook];

export function isImplementedChannel(code: ChannelCode): boolean {
  return IMPLEMENTED_CHANNELS.includes(code);
}
