export { SecretBox } from './secret-box';
export { secretBoxProvider } from './secret-box.provider';
export {
  generateSecret,
  generateSigningKeyPair,
  signingKeyPairFromSeed,
  SIGNATURE_SCHEMES,
  signWebhook,
  verifyWebhook,
} from './signing';
export { hostOf, parseWebhookUrl, resolveSafely, safeLookup, UnsafeDestinationError } from './url-safety';
export type { DestinationPolicy, HostLookup } from './url-safety';
