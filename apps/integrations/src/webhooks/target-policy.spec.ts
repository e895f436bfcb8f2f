import { describe, expect, it } from 'vitest';
import { checkEndpointUrl, isPublicAddress, refusedAddress } from './target-policy';

describe('isPublicAddress', () => {
  it.each([
    ['93.184.216.34', true],
    ['2606:2800:220:1:248:1893:25c8:1946', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['fd00::1', false],
    ['fe80::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:93.184.216.34', true],
    // IPv4-compatible (::/96) refused whole, the public address included.
    ['::7f00:1', false],
    ['::a9fe:a9fe', false],
    ['::5db8:d822', false],
    ['::', false],
    // Translated, NAT64 and 6to4 forms judged as the IPv4 address they carry.
    ['::ffff:0:7f00:1', false],
    ['::ffff:0:5db8:d822', true],
    ['64:ff9b::a9fe:a9fe', false],
    ['64:ff9b::10.0.0.1', false],
    ['64:ff9b::93.184.216.34', true],
    ['64:ff9b:1::5db8:d822', false],
    ['2002:7f00:1::1', false],
    ['2002:a9fe:a9fe::1', false],
    ['2002:5db8:d822::1', true],
    ['2001:0:5db8:d822::1', false],
    ['224.0.0.1', false],
    ['not an address', false],
  ])('%s -> %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('refusedAddress', () => {
  it.each([
    ['93.184.216.34', 'https:', false, undefined],
    ['10.0.0.1', 'https:', false, /private/],
    ['10.0.0.1', 'https:', true, undefined],
    ['127.0.0.1', 'http:', true, undefined],
    ['127.0.0.1', 'http:', false, /https/],
    ['93.184.216.34', 'http:', true, /public/],
    ['::7f00:1', 'https:', false, /private/],
    ['64:ff9b::7f00:1', 'https:', false, /private/],
  ])('%s over %s, private allowed %s', (address, protocol, allowPrivate, expected) => {
    const refused = refusedAddress(address, protocol, allowPrivate);
    if (expected === undefined) expect(refused).toBeUndefined();
    else expect(refused).toMatch(expected);
  });
});

describe('checkEndpointUrl', () => {
  const resolve = async (host: string) =>
    ({ 'hooks.example': ['93.184.216.34'], 'inside.example': ['10.0.0.7'], 'mixed.example': ['93.184.216.34', '127.0.0.1'] })[host] ?? [];

  it.each([
    ['https://hooks.example/in', false, undefined],
    ['https://inside.example/in', false, /private/],
    ['https://mixed.example/in', false, /127\.0\.0\.1/],
    ['https://127.0.0.1/in', false, /private/],
    ['https://[::1]/in', false, /private/],
    ['https://[::127.0.0.1]/x', false, /private/],
    ['https://[::a9fe:a9fe]/', false, /private/],
    ['https://[::ffff:169.254.169.254]/', false, /private/],
    ['https://[64:ff9b::169.254.169.254]/', false, /private/],
    ['https://[2002:a9fe:a9fe::1]/', false, /private/],
    ['http://hooks.example/in', false, /https/],
    ['http://127.0.0.1:9000/in', true, undefined],
    ['http://inside.example/in', true, undefined],
    ['http://hooks.example/in', true, /public/],
    ['https://inside.example/in', true, undefined],
    ['https://nowhere.example/in', false, /does not resolve/],
    ['https://user:pw@hooks.example/in', false, /credentials/],
    ['ftp://hooks.example/in', false, /https/],
    ['hooks.example/in', false, /absolute URL/],
  ])('%s (private allowed: %s)', async (url, allowPrivate, expected) => {
    const problem = await checkEndpointUrl(url, allowPrivate, resolve);
    if (expected === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(expected);
  });
});
