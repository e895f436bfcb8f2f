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
