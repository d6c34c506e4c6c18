// Per-client limits count a network: an IPv4 address, or the /64 an IPv6 customer is handed.
import { describe, expect, it } from 'vitest';
import { networkKey } from './network-key.ts';

describe('networkKey', () => {
  it('keeps an IPv4 address, also one written as IPv6', () => {
    expect(networkKey('203.0.113.5')).toBe('203.0.113.5');
    expect(networkKey('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(networkKey('203.0.113.6')).not.toBe(networkKey('203.0.113.5'));
  });

  it('maps every address of one IPv6 /64 to one key, however it is written', () => {
    const key = networkKey('2001:db8:1:2::1');
    for (const other of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:abcd::9',
      '2001:db8:1:2:0:0:0:7%eth0',
    ]) {
      expect(networkKey(other)).toBe(key);
    }
    expect(key).toBe('2001:0db8:0001:0002::/64');
  });

  it('tells neighbouring /64s apart', () => {
    expect(networkKey('2001:db8:1:3::1')).not.toBe(networkKey('2001:db8:1:2::1'));
    expect(networkKey('::1')).toBe('0000:0000:0000:0000::/64');
    expect(networkKey('fe80::1')).toBe('fe80:0000:0000:0000::/64');
  });

  it('answers anything else unchanged', () => {
    expect(networkKey('not-an-address')).toBe('not-an-address');
  });
});
