import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loggedPath } from '../../../extras/operator/access-log.js';
import type { AccessLogEntry } from '../../../extras/operator/access-log.js';
import { AUTH, rawExchange, startTestServer } from '../../support/standalone-http.js';

describe('the access log', () => {
  test('loggedPath() keeps the path alone: no query, fragment, scheme or authority, so no userinfo', () => {
    const cases: [string, string][] = [
      ['/v1/pets?limit=5&name=secret', '/v1/pets'],
      ['/v1/pets#frag', '/v1/pets'],
      ['http://admin:hunter2@host/v1/pets', '/v1/pets'],
      ['HTTPS://admin:hunter2@host:8443/v1/pets/1?x=1', '/v1/pets/1'],
      ['http://admin:hunter2@host', '/'],
      ['http://admin:hunter2@host?limit=1', '/'],
      ['ftp://admin:hunter2@host/v1/pets', '/v1/pets'],
      ['admin:hunter2@host:443', 'host:443'],
      ['*', '*'],
      ['', ''],
    ];
    for (const [target, path] of cases) assert.equal(loggedPath(target), path, target);
  });

  test('the access log writes an absolute-form target\'s path only, never its userinfo or query', async () => {
    const lines: string[] = [];
    const server = await startTestServer({ accessLog: (line) => void lines.push(line) });
    try {
      const auth = `Authorization: ${AUTH.authorization}\r\n`;
      await rawExchange(server.port, [`GET http://admin:hunter2@127.0.0.1/v1/pets?token=hunter3 HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Connection: close\r\n\r\n`]);
    } finally {
      await server.close();
    }
    const entries = lines.map((line) => JSON.parse(line) as AccessLogEntry);
    assert.deepEqual(entries.map((entry) => [entry.method, entry.path, entry.status]), [['GET', '/v1/pets', 200]]);
    assert.ok(!lines.join('\n').includes('hunter'), lines.join('\n'));
  });
});
