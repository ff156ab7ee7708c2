/**
 * Channels a notification can travel through. All are known so that a caller asking for EMAIL
 * learns it is not available yet (422) rather than that it does not exist (400).
 */
export const CHANNEL_CODES = ['WEBHOOK', 'EMAIL', 'SMS', 'PUSH'] as const;
export type ChannelCode = (typeof CHANNEL_CODES)[number];

export const IMPLEMENTED_CHANNELS: readonly ChannelCode[] = ['WEBHOOK'];

export function isImplementedChannel(code: ChannelCode): boolean {
  return IMPLEMENTED_CHANNELS.includes(code);
}
