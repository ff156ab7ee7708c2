/**
 * Told after commit that an account was created or changed, so that what replicas keep of it
 * (for fee quotes) is dropped. The card context's refs provide it: the accounts know no reader.
 */
export abstract class AccountChanges {
  abstract accountChanged(tenantId: string, accountId: string): Promise<void>;
}
