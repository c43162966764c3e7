import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call } from '../../support/http.js';
import { jsonLines, runMain, spawnServer } from '../../support/process.js';

const GOOD_KEY = 'loaded-key-0123456789';

describe('cli keys: checked when they are loaded, before anything starts', () => {
  let directory = '';
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-keys-loaded-'));
  });
  after(() => rm(directory, { recursive: true, force: true }));

  test('main refuses a bad key in PETSTORE_API_KEYS or the key file with exit 2 and one line naming the setting, before any storage opens', async () => {
    const keyFile = join(directory, 'bad-keys');
    await writeFile(keyFile, `# keys\n${GOOD_KEY}\nbad key-9f8e7d6c5b\n`, { mode: 0o600 });
    const cases: [Record<string, string>, string[], RegExp, string][] = [
      [{ PETSTORE_API_KEYS: 'a b' }, [], /^petstore-reference: PETSTORE_API_KEYS, key 1 holds a character no key can have: a key is 16 or more characters of RFC 6750's token68/, 'a b'],
      [{ PETSTORE_API_KEYS: `${GOOD_KEY},ключ-0123456789abcdef` }, [], /^petstore-reference: PETSTORE_API_KEYS, key 2 holds a character no key can have/, 'ключ'],
      [{ PETSTORE_API_KEYS: 'too-short' }, [], /^petstore-reference: PETSTORE_API_KEYS, key 1 holds a key of fewer than 16 characters, too easy to guess/, 'too-short'],
      [{ PETSTORE_API_KEYS: ',' }, [], /^petstore-reference: PETSTORE_API_KEYS holds no key: list keys separated by commas, or unset it for a development key\n$/, 'development key for this run'],
      [{ PETSTORE_API_KEYS: '# none yet' }, [], /^petstore-reference: PETSTORE_API_KEYS holds no key/, 'none yet'],
      [{}, ['--api-keys-file', keyFile], /^petstore-reference: --api-keys-file: .*bad-keys, line 3 holds a character no key can have/, 'key-9f8e7d6c5b'],
      [{ PETSTORE_API_KEYS_FILE: keyFile }, [], /^petstore-reference: PETSTORE_API_KEYS_FILE: .*bad-keys, line 3 holds/, 'key-9f8e7d6c5b'],
    ];
    for (const [index, [env, args, message, secret]] of cases.entries()) {
      const dataDirectory = join(directory, `data-${index}`);
      await mkdir(dataDirectory);
      const { code, stdout, stderr } = await runMain(env, [...args, '--data', join(dataDirectory, 'pets.journal')]);
      const what = JSON.stringify([env, args]);
      assert.equal(code, 2, what);
      assert.equal(stdout, '', what);
      assert.equal(stderr.split('\n').filter((line) => line !== '').length, 1, `one line: ${stderr}`);
      assert.match(stderr, message, what);
      assert.ok(!stderr.includes(secret), `${what} does not quote the key`);
      assert.deepEqual(await readdir(dataDirectory), [], `${what}: no journal created, no lock taken`);
    }
  });

  test('main warns about a key file others can read, and on SIGHUP names a bad line by its number and keeps the keys in force', async () => {
    const keyFile = join(directory, 'shared-keys');
    await writeFile(keyFile, `${GOOD_KEY}\n`);
    await chmod(keyFile, 0o644);
    const server = spawnServer({}, ['--api-keys-file', keyFile]);
    const status = async (key: string): Promise<number> => (await call(server, 'GET', '/v1/pets', { headers: { authorization: `Bearer ${key}` } })).status;
    try {
      await server.ready;
      const warning = jsonLines(server.stderr()).find((line) => line['level'] === 'warn');
      assert.deepEqual(warning && [warning['msg'], warning['file'], warning['mode']], ['The API key file is open to other users of this machine; chmod 600 it', keyFile, '0644']);
      await chmod(keyFile, 0o600);
      await writeFile(keyFile, `# rotated\n${GOOD_KEY}\n\nnew key with spaces\n`);
      server.child.kill('SIGHUP');
      const [refused] = await server.waitForStderr(/\{[^\n]*"msg":"API keys not reloaded; the keys in force stay"[^\n]*\}/);
      assert.match(String(JSON.parse(refused)['reason']), /shared-keys, line 4 holds a character no key can have/);
      assert.equal(await status(GOOD_KEY), 200, 'the keys in force stay');
    } finally {
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0, server.stderr());
    }
    assert.equal(jsonLines(server.stderr()).filter((line) => line['level'] === 'warn').length, 2, 'no second warning about the mode once the file is 0600');
    assert.ok(!server.stderr().includes('new key with spaces'));
  });
});
