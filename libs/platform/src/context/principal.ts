/** Who is calling: the API token, its tenant and its scopes. */
export interface Principal {
  tokenId: string;
  tenantId: string;
  tenantCode: string;
  scopes: readonly string[];
  /** The portal session whose cookie carried the request; absent for an API token. */
  portalSessionId?: string;
}
