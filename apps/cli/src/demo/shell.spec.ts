import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliCallCommand, curlCommand, exportKeysCommand, shellQuote } from './shell';

const sh = (command: string) => execFileSync('sh', ['-c', command], { encoding: 'utf8' });
/** The words the shell makes of a printed command, after its first `skip` words. */
const words = (command: string, skip: number) => sh(`set -- ${command}; shift ${skip}; for w in "$@"; do printf '%s\\n' "$w"; done`).trimEnd().split('\n');

describe('the printed curl command', () => {
  it('quotes words so the shell gives them back unchanged', () => {
    for (const word of ["it's", 'a b', 'SVC-HMAC access_key=sk_live_x signature=ab timestamp=1', '$HOME', '`x`', 'plain']) {
      expect(sh(`printf %s ${shellQuote(word)}`)).toBe(word);
    }
  });

  it('is one pasteable command with the URL and each header as single words', () => {
    const command = curlCommand({
      url: 'http://127.0.0.1:8080/meter/v1/projection?device_id=1001&x=%2C',
      method: 'GET',
      headers: { Authorization: 'SVC-HMAC access_key=sk_live_abc signature=0f timestamp=1763700000' },
    });
    expect(command).toBe(
      "curl -sS 'http://127.0.0.1:8080/meter/v1/projection?device_id=1001&x=%2C' \\\n  -H 'Authorization: SVC-HMAC access_key=sk_live_abc signature=0f timestamp=1763700000'",
    );
    expect(words(command, 2)).toEqual([
      'http://127.0.0.1:8080/meter/v1/projection?device_id=1001&x=%2C',
      '-H',
      'Authorization: SVC-HMAC access_key=sk_live_abc signature=0f timestamp=1763700000',
    ]);
  });
});

describe('the printed cli call command', () => {
  it('passes the keys as --name=value words, so a secret beginning with "-" is never taken for an option', () => {
    const command = cliCallCommand({ url: 'http://127.0.0.1:8080/meter/v1/projection?device_id=1&a=b', accessKey: 'sk_live_abc-_1', secretKey: "-s'ecret x" });
    expect(command.split(' \\\n  ')).toHaveLength(4);
    expect(words(command, 0)).toEqual([
      'npm',
      'run',
      'cli',
      '--',
      'call',
      '--access-key=sk_live_abc-_1',
      "--secret-key=-s'ecret x",
      'http://127.0.0.1:8080/meter/v1/projection?device_id=1&a=b',
    ]);
    expect(command).toContain('--secret-key=');
  });
});

describe('the printed export of the keys', () => {
  it('sets both variables to the keys exactly, whatever they hold', () => {
    for (const secretKey of ['-H7644jabc', "it's x", 'plain_-key']) {
      const command = exportKeysCommand({ accessKey: 'sk_live_abc', secretKey });
      expect(sh(`${command}; printf '%s\\n%s' "$METER_ACCESS_KEY" "$METER_SECRET_KEY"`)).toBe(`sk_live_abc\n${secretKey}`);
    }
  });
});
