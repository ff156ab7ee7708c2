import { ConfigError, loadConfig as sut } from './config';

describe('loadConfig: TRUST_PROXY', () => {
  it('trusts no proxy unless told, and takes addresses, CIDR ranges and named ranges', () => {
    expect(sut({}).TRUST_PROXY).toBe('');
    const proxies = '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback';
    expect(sut({ TRUST_PROXY: proxies }).TRUST_PROXY).toBe(proxies);
  });

  it('refuses anything else, naming the variable', () => {
    for (const wrong of ['true', '10.0.0.0/33', 'proxy.internal', '127.0.0.1,,10.0.0.1', '0x7f.1']) {
      expect(() => sut({ TRUST_PROXY: wrong })).toThrow(ConfigError);
      expect(() => sut({ TRUST_PROXY: wrong })).toThrow(/TRUST_PROXY: must be IP addresses/);
    }
  });
});
