import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import * as ipaddr from 'ipaddr.js';

/**
 * Server-side request forgery guard for webhook destinations: only http(s), and only addresses on
 * the public internet unless the operator allows private networks (tests, demo, on-premise).
 * Checked when an endpoint is registered and again, on the resolved address, at every delivery,
 * because DNS can change between the two.
 */
export interface DestinationPolicy {
  allowPrivateNetworks: boolean;
}

export type UrlRefusal =
  | 'invalid_url'
  | 'scheme_not_allowed'
  | 'credentials_in_url'
  | 'private_address'
  | 'metadata_address'
  | 'forbidden_address'
  | 'unresolvable_host';

export class UnsafeDestinationError extends Error {
  constructor(
    readonly reason: UrlRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'UnsafeDestinationError';
  }
}

/** Cloud instance-metadata services: never a webhook receiver, whatever the policy. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data']);

/** Ranges a private network uses; allowed only with allowPrivateNetworks. */
const PRIVATE_RANGES = new Set(['private', 'loopback', 'linkLocal', 'uniqueLocal', 'carrierGradeNat']);

/** Why an address may not be called, or undefined when it may. */
export function addressRefusal(address: string, policy: DestinationPolicy): UrlRefusal | undefined {
  if (!ipaddr.isValid(address)) return 'forbidden_address';
  let parsed = ipaddr.parse(address);
  // ::ffff:10.0.0.1 is 10.0.0.1: judge the IPv4 address inside.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString())) {
    return 'metadata_address';
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  if (PRIVATE_RANGES.has(range)) return policy.allowPrivateNetworks ? undefined : 'private_address';
  // unspecified, broadcast, multicast, reserved, 6to4, teredo, …: nothing a receiver lives on.
  return 'forbidden_address';
}

/** Checks the parts of a URL that need no DNS; returns the parsed URL. */
export function parseWebhookUrl(raw: string, policy: DestinationPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeDestinationError('invalid_url', 'not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UnsafeDestinationError(
      'scheme_not_allowed',
      `scheme ${url.protocol.replace(':', '')} is not allowed; use https or http`,
    );
  }
  if (url.username || url.password) {
    throw new UnsafeDestinationError('credentials_in_url', 'credentials in the URL are not allowed');
  }
  const host = hostOf(url);
  if (METADATA_HOSTS.has(host.toLowerCase())) {
    throw new UnsafeDestinationError('metadata_address', `${host} is a cloud metadata service`);
  }
  if (isIP(host)) {
    const refusal = addressRefusal(host, policy);
    if (refusal) throw new UnsafeDestinationError(refusal, describeRefusal(refusal, host));
  } else if (!policy.allowPrivateNetworks && (host === 'localhost' || host.endsWith('.localhost'))) {
    throw new UnsafeDestinationError('private_address', describeRefusal('private_address', host));
  }
  return url;
}

/** Host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export function describeRefusal(reason: UrlRefusal, where: string): string {
  switch (reason) {
    case 'private_address':
      return `${where} is in a loopback, private or link-local range`;
    case 'metadata_address':
      return `${where} is a cloud metadata address`;
    case 'unresolvable_host':
      return `${where} cannot be resolved`;
    default:
      return `${where} is not a public unicast address`;
  }
}

/** A `dns.lookup` with `all: true`: how host names become addresses (the system resolver unless told). */
export type HostLookup = (
  hostname: string,
  options: { all: true },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** Resolves a host name and refuses it when any of its addresses is refused. */
export async function resolveSafely(
  host: string,
  policy: DestinationPolicy,
  lookup: HostLookup = dnsLookup as HostLookup,
): Promise<LookupAddress[]> {
  if (isIP(host)) {
    const refusal = addressRefusal(host, policy);
    if (refusal) throw new UnsafeDestinationError(refusal, describeRefusal(refusal, host));
    return [{ address: host, family: isIP(host) }];
  }
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    lookup(host, { all: true }, (err, found) =>
      err || !found?.length
        ? reject(new UnsafeDestinationError('unresolvable_host', describeRefusal('unresolvable_host', host)))
        : resolve(found),
    ),
  );
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) throw new UnsafeDestinationError(refusal, describeRefusal(refusal, `${host} (${address})`));
  }
  return addresses;
}

/**
 * A `lookup` for http(s) requests that checks the very addresses the socket will connect to, so
 * a DNS answer that changes between check and connect (rebinding) cannot slip through.
 */
export function safeLookup(policy: DestinationPolicy, lookup?: HostLookup) {
  return (
    hostname: string,
    options: { all?: boolean } | number | undefined,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    const all = typeof options === 'object' && options?.all === true;
    resolveSafely(hostname, policy, lookup).then(
      (addresses) =>
        all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family),
      (error: Error) => callback(error as NodeJS.ErrnoException, all ? [] : '', 0),
    );
  };
}
