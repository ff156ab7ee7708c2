import { addressRefusal, parseWebhookUrl, resolveSafely, UnsafeDestinationError } from './url-safety';

const strict = { allowPrivateNetworks: false };
const lenient = { allowPrivateNetworks: true };

describe('addressRefusal', () => {
  it.each([
    ['127.0.0.1', 'private_address'],
    ['10.1.2.3', 'private_address'],
    ['172.16.0.1', 'private_address'],
    ['192.168.1.1', 'private_address'],
    ['169.254.10.10', 'private_address'],
    ['::1', 'private_address'],
    ['fc00::1', 'private_address'],
    ['fe80::1', 'private_address'],
    ['::ffff:10.0.0.1', 'private_address'],
    ['169.254.169.254', 'metadata_address'],
    ['fd00:ec2::254', 'metadata_address'],
    ['0.0.0.0', 'forbidden_address'],
    ['224.0.0.1', 'forbidden_address'],
    ['255.255.255.255', 'forbidden_address'],
  ])('refuses %s as %s', (address, reason) => {
    expect(addressRefusal(address, strict)).toBe(reason);
  });

  it('accepts public unicast addresses', () => {
    expect(addressRefusal('93.184.216.34', strict)).toBeUndefined();
    expect(addressRefusal('2606:2800:220:1:248:1893:25c8:1946', strict)).toBeUndefined();
  });

  it('allows private ranges when the operator says so, but never metadata or unspecified addresses', () => {
    expect(addressRefusal('127.0.0.1', lenient)).toBeUndefined();
    expect(addressRefusal('10.0.0.1', lenient)).toBeUndefined();
    expect(addressRefusal('169.254.169.254', lenient)).toBe('metadata_address');
    expect(addressRefusal('0.0.0.0', lenient)).toBe('forbidden_address');
  });
});

describe('parseWebhookUrl', () => {
  /** The refusal's reason, or undefined when accepted; any other error fails the test. */
  const reasonOf = (url: string, policy = strict) => {
    try {
      parseWebhookUrl(url, policy);
      return undefined;
    } catch (error) {
      if (error instanceof UnsafeDestinationError) return error.reason;
      throw error;
    }
  };

  it('accepts public http(s) URLs', () => {
    expect(reasonOf('https://hooks.example.com/fincore')).toBeUndefined();
    expect(reasonOf('http://93.184.216.34:8080/x')).toBeUndefined();
  });
  it('refuses other schemes, credentials, loopback names and literal private addresses', () => {
    expect(reasonOf('ftp://example.com')).toBe('scheme_not_allowed');
    expect(reasonOf('file:///etc/passwd')).toBe('scheme_not_allowed');
    expect(reasonOf('not a url')).toBe('invalid_url');
    expect(reasonOf('https://user:pw@example.com')).toBe('credentials_in_url');
    expect(reasonOf('http://localhost:8080')).toBe('private_address');
    expect(reasonOf('http://[::1]/x')).toBe('private_address');
    expect(reasonOf('http://169.254.169.254/latest/meta-data')).toBe('metadata_address');
    expect(reasonOf('http://metadata.google.internal/')).toBe('metadata_address');
  });
  it('accepts loopback with allowPrivateNetworks', () => {
    expect(reasonOf('http://127.0.0.1:9999/hook', lenient)).toBeUndefined();
    expect(reasonOf('http://localhost:9999/hook', lenient)).toBeUndefined();
  });
});

describe('resolveSafely', () => {
  const lookupTo =
    (addresses: string[]) =>
    (_h: string, _o: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) =>
      cb(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );

  it('refuses a name when any of its addresses is private (DNS rebinding)', async () => {
    await expect(
      resolveSafely('evil.example', strict, lookupTo(['93.184.216.34', '10.0.0.5'])),
    ).rejects.toMatchObject({ reason: 'private_address' });
  });
  it('returns the addresses of a public name', async () => {
    await expect(resolveSafely('ok.example', strict, lookupTo(['93.184.216.34']))).resolves.toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
  });
  it('refuses a name that does not resolve', async () => {
    const failing = (_h: string, _o: unknown, cb: (e: NodeJS.ErrnoException, a: never[]) => void) =>
      cb(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }), []);
    await expect(resolveSafely('nowhere.example', strict, failing)).rejects.toMatchObject({
      reason: 'unresolvable_host',
    });
  });
});
