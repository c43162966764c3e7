import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createKeyReloader, parseApiKeysFile, readApiKeysFile, startingKeys } from '../../cli/api-keys.js';
import { UsageError } from '../../cli/command-line.js';
import type { LogEntry } from '../../server/node/index.js';

/** A file system of one directory, for readApiKeysFile's seam. */
function files(contents: Record<string, string>): (path: string) => Promise<string> {
  return async (path) => {
    const text = contents[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
    return text;
  };
}

describe('parseApiKeysFile()', () => {
  test('parseApiKeysFile() takes one key per line, trimmed, without comments, blank lines, CRs or a BOM', () => {
    const text = '\uFEFF# keys of the petstore\nalpha\r\n  beta  \n\n\t\ngamma # added 2026-03-01\n   # indented comment\n#delta\n';
    assert.deepEqual(parseApiKeysFile(text), ['alpha', 'beta', 'gamma']);
  });

  test('parseApiKeysFile() finds no key in a file of comments and blank lines', () => {
    assert.deepEqual(parseApiKeysFile('# nothing yet\n\n'), []);
    assert.deepEqual(parseApiKeysFile(''), []);
  });
});

describe('readApiKeysFile()', () => {
  test('readApiKeysFile() says why a file gives no key, naming the file and never a key', async () => {
    const readText = files({ '/keys/empty': '# only a comment\n', '/keys/ok': 'k1\nk2\n' });
    assert.deepEqual(await readApiKeysFile('/keys/ok', readText), { keys: ['k1', 'k2'] });
    assert.deepEqual(await readApiKeysFile('/keys/empty', readText), { problem: '/keys/empty holds no key (only blank lines and comments)' });
    assert.deepEqual(await readApiKeysFile('/keys/missing', readText), { problem: 'cannot read /keys/missing (ENOENT)' });
    assert.deepEqual(await readApiKeysFile('/keys/odd', () => Promise.reject(new Error('odd failure'))), { problem: 'cannot read /keys/odd (odd failure)' });
  });
});

describe('startingKeys()', () => {
  test('startingKeys() takes the keys of the environment or of the file, and logs how many, never which', async () => {
    const entries: LogEntry[] = [];
    const log = (entry: LogEntry): void => void entries.push(entry);
    const readText = files({ '/keys': 'file-key-1\nfile-key-2\n' });
    assert.deepEqual(await startingKeys({ kind: 'environment', keys: ['env-key'] }, readText, log), { apiKeys: ['env-key'], isGenerated: false });
    assert.deepEqual(await startingKeys({ kind: 'file', path: '/keys', sourceName: '--api-keys-file' }, readText, log), { apiKeys: ['file-key-1', 'file-key-2'], isGenerated: false });
    const generated = await startingKeys({ kind: 'generated' }, readText, log);
    assert.equal(generated.isGenerated, true);
    assert.match(generated.apiKeys[0] ?? '', /^[A-Za-z0-9_-]{32}$/);
    assert.deepEqual(entries, [
      { level: 'info', msg: 'API keys loaded', source: 'environment', keys: 1 },
      { level: 'info', msg: 'API keys loaded', source: 'file', file: '/keys', keys: 2 },
      { level: 'warn', msg: 'API keys generated for this run', source: 'generated', keys: 1 },
    ]);
    assert.ok(!JSON.stringify(entries).includes('key-'), 'no key is logged');
  });

  test('startingKeys() refuses to start on a key file that gives no key', async () => {
    const readText = files({ '/empty': '\n# none\n' });
    for (const path of ['/empty', '/missing']) {
      await assert.rejects(startingKeys({ kind: 'file', path, sourceName: 'PETSTORE_API_KEYS_FILE' }, readText, () => undefined), (error: unknown) => {
        assert.ok(error instanceof UsageError);
        assert.match(error.message, new RegExp(`^PETSTORE_API_KEYS_FILE: (${path} holds no key|cannot read ${path} \\(ENOENT\\))`));
        return true;
      });
    }
  });
});

describe('createKeyReloader()', () => {
  test('createKeyReloader() puts the file\'s keys in force, and keeps those in force when the file gives none or the server refuses them', async () => {
    const contents: Record<string, string> = { '/keys': 'one\ntwo\n' };
    const inForce: (readonly string[])[] = [];
    const entries: LogEntry[] = [];
    const reload = createKeyReloader({
      path: '/keys',
      readText: files(contents),
      setApiKeys(keys) {
        if (keys.includes('bad key')) throw new TypeError('API key 1 ("bad key") must be visible ASCII');
        inForce.push(keys);
      },
      log: (entry) => void entries.push(entry),
    });
    await reload();
    contents['/keys'] = '# emptied by mistake\n';
    await reload();
    contents['/keys'] = 'bad key\n';
    await reload();
    delete contents['/keys'];
    await reload();
    contents['/keys'] = 'three\n';
    await reload();
    assert.deepEqual(inForce, [['one', 'two'], ['three']]);
    assert.deepEqual(entries, [
      { level: 'info', msg: 'API keys reloaded', file: '/keys', keys: 2 },
      { level: 'warn', msg: 'API keys not reloaded; the keys in force stay', file: '/keys', reason: '/keys holds no key (only blank lines and comments)' },
      { level: 'warn', msg: 'API keys not reloaded; the keys in force stay', file: '/keys', reason: 'the server refused the list: API key 1 ("<key>") must be visible ASCII' },
      { level: 'warn', msg: 'API keys not reloaded; the keys in force stay', file: '/keys', reason: 'cannot read /keys (ENOENT)' },
      { level: 'info', msg: 'API keys reloaded', file: '/keys', keys: 1 },
    ]);
  });

  test('createKeyReloader() runs reloads one after another, so the last signal\'s reading wins', async () => {
    const inForce: (readonly string[])[] = [];
    let reads = 0;
    const reload = createKeyReloader({
      path: '/keys',
      // The first read is the slowest: run together, it would finish last.
      readText: async () => {
        reads++;
        const text = `key-${reads}\n`;
        await new Promise((done) => setTimeout(done, reads === 1 ? 30 : 0));
        return text;
      },
      setApiKeys: (keys) => void inForce.push(keys),
      log: () => undefined,
    });
    await Promise.all([reload(), reload(), reload()]);
    assert.deepEqual(inForce, [['key-1'], ['key-2'], ['key-3']]);
  });
});
