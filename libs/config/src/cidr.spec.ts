import { describe, expect, it } from 'vitest';
import { addressBlock, parseCidr } from './cidr';

describe('addressBlock', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::ffff', '2001:db8:1:2::/64'],
    ['2001:DB8:0:0:1::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['unknown', 'unknown'],
  ])('%s counts as %s', (address, block) => expect(addressBlock(address)).toBe(block));

  it('puts every address of a /64 in one block, and the next /64 in another', () => {
    expect(addressBlock('2001:db8:a:b:ffff:ffff:ffff:ffff')).toBe(addressBlock('2001:db8:a:b::1'));
    expect(addressBlock('2001:db8:a:c::1')).not.toBe(addressBlock('2001:db8:a:b::1'));
  });
});

describe('parseCidr', () => {
  it.each(['10.0.0.0/8', '2001:db8::/32', '192.0.2.1', '::1'])('takes %s', (text) => expect(parseCidr(text)).toBeDefined());
  it.each(['1.2.3', '0x7f.0.0.1', '10.0.0.0/33', '::/129', 'x/8', '', '10.0.0.0/-1'])('refuses %j', (text) => expect(parseCidr(text)).toBeUndefined());
  it('reads an IPv4-mapped IPv6 range as IPv4', () => {
    expect(parseCidr('::ffff:10.0.0.0/104')).toEqual([expect.objectContaining({ octets: [10, 0, 0, 0] }), 8]);
  });
});
