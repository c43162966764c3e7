import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MIN_API_KEY_LENGTH } from '../../../server/core/index.js';
import { createReloadableKeys, parseApiKeysFile, parseApiKeysVariable, readApiKeysFile, startingKeys } from '../../../extras/cli/api-keys.js';
import type { KeyFileOptions } from '../../../extras/cli/api-keys.js';
import { UsageError } from '../../../extras/cli/command-line.js';
import type { LogEntry } from '../../../server/node/index.js';

/** A file system of one directory, for readApiKeysFile's seam. */
function files(contents: Record<string, string>): (path: string) => Promise<string> {
  return async (path) => {
    const text = contents[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
    return text;
  };
}

const [K1, K2, K3] = ['first-key-0123456789', 'second-key-0123456789', 'third-key-0123456789'];

/** Keys a client cannot send, or too short to be safe; each must be refused without being quoted. */
const BAD_KEYS: readonly [string, RegExp][] = [
  ['has space-0123456789', /holds a character no key can have/],
  ['tab\tkey-0123456789', /holds a character no key can have/],
  ['non-latin-ключ-0123456789', /holds a character no key can have/],
  ['latin1-café-0123456789', /holds a character no key can have/],
  ['quote"key-0123456789', /holds a character no key can have/],
  ['pad=ding-0123456789', /holds a character no key can have/],
  ['short-key', /holds a key of fewer than 16 characters, too easy to guess/],
  ['Zq', /holds a key of fewer than 16 characters/],
  ['k'.repeat(4097), /holds a key longer than any client may send/],
];

describe('parseApiKeysFile()', () => {
  test('parseApiKeysFile() takes one key per line, trimmed, without comments, blank lines, CRs or a BOM', () => {
    const text = `\uFEFF# keys of the petstore\n${K1}\r\n  ${K2}  \n\n\t\n${K3} # added 2026-03-01\n   # indented comment\n#delta\n`;
    assert.deepEqual(parseApiKeysFile(text), { keys: [K1, K2, K3] });
  });

  test('parseApiKeysFile() finds no key in a file of comments and blank lines', () => {
    assert.deepEqual(parseApiKeysFile('# nothing yet\n\n'), { problem: 'holds no key' });
    assert.deepEqual(parseApiKeysFile(''), { problem: 'holds no key' });
  });

  test('parseApiKeysFile() names a bad key by its line number and never quotes it', () => {
    for (const [key, reason] of BAD_KEYS) {
      const reading = parseApiKeysFile(`# keys\n${K1}\n\n${key}\n${K2}\n`);
      assert.ok('problem' in reading, key);
      assert.match(reading.problem, /^line 4 /, key);
      assert.match(reading.problem, reason, key);
      assert.ok(!reading.problem.includes(key), key);
    }
    assert.equal(MIN_API_KEY_LENGTH, 16, 'the library\'s rule, which the command line applies');
    assert.deepEqual(parseApiKeysFile(`${'k'.repeat(16)}\nAbc-._~+/0123456789==\n`), { keys: ['k'.repeat(16), 'Abc-._~+/0123456789=='] }, 'token68 at the minimum length, and with padding');
  });
});

describe('parseApiKeysVariable()', () => {
  test('parseApiKeysVariable() takes comma-separated keys, trimmed, and # starts a comment as in the key file', () => {
    assert.deepEqual(parseApiKeysVariable(` ${K1} ,${K2},, # rotated: old one gone`), { keys: [K1, K2] });
    assert.deepEqual(parseApiKeysVariable(`${K1}\n# the next one\n${K2}`), { keys: [K1, K2] });
  });

  test('parseApiKeysVariable() finds no key in a list of only commas or comments', () => {
    for (const text of [',', ' , ,', '# none', ', # none']) assert.deepEqual(parseApiKeysVariable(text), { problem: 'holds no key' }, text);
  });

  test('parseApiKeysVariable() names a bad key by its position and never quotes it', () => {
    for (const [key, reason] of BAD_KEYS) {
      const reading = parseApiKeysVariable(`${K1},,${key}`);
      assert.ok('problem' in reading, key);
      assert.match(reading.problem, /^key 2 /, key);
      assert.match(reading.problem, reason, key);
      assert.ok(!reading.problem.includes(key), key);
    }
  });
});

describe('readApiKeysFile()', () => {
  test('readApiKeysFile() says why a file gives no key, naming the file and never a key', async () => {
    const readText = files({ '/keys/empty': '# only a comment\n', '/keys/ok': `${K1}\n${K2}\n`, '/keys/bad': `${K1}\nbad key\n` });
    assert.deepEqual(await readApiKeysFile('/keys/ok', readText), { keys: [K1, K2] });
    assert.deepEqual(await readApiKeysFile('/keys/empty', readText), { problem: '/keys/empty holds no key (only blank lines and comments)' });
    assert.deepEqual(await readApiKeysFile('/keys/missing', readText), { problem: 'cannot read /keys/missing (ENOENT)' });
    assert.deepEqual(await readApiKeysFile('/keys/odd', () => Promise.reject(new Error('odd failure'))), { problem: 'cannot read /keys/odd (odd failure)' });
    const bad = await readApiKeysFile('/keys/bad', readText);
    assert.ok('problem' in bad);
    assert.match(bad.problem, /^\/keys\/bad, line 2 holds a character no key can have/);
  });
});

/** Options for startingKeys and createReloadableKeys over these files, with these modes, logging into `entries`. */
function keyFileOptions(readText: KeyFileOptions['readText'], entries: LogEntry[], mode = 0o100600): KeyFileOptions {
  return { readText, fileMode: async () => mode, log: (entry) => void entries.push(entry) };
}

describe('startingKeys()', () => {
  test('startingKeys() takes the keys of the environment or of the file, and logs how many, never which', async () => {
    const entries: LogEntry[] = [];
    const options = keyFileOptions(files({ '/keys': `${K1}\n${K2}\n` }), entries);
    assert.deepEqual(await startingKeys({ kind: 'environment', keys: [K3] }, options), { apiKeys: [K3], isGenerated: false });
    assert.deepEqual(await startingKeys({ kind: 'file', path: '/keys', sourceName: '--api-keys-file' }, options), { apiKeys: [K1, K2], isGenerated: false });
    const generated = await startingKeys({ kind: 'generated' }, options);
    assert.equal(generated.isGenerated, true);
    assert.match(generated.apiKeys[0] ?? '', /^[A-Za-z0-9_-]{32}$/);
    assert.deepEqual(entries, [
      { level: 'info', msg: 'API keys loaded', source: 'environment', keys: 1 },
      { level: 'info', msg: 'API keys loaded', source: 'file', file: '/keys', keys: 2 },
      { level: 'warn', msg: 'API keys generated for this run', source: 'generated', keys: 1 },
    ]);
    assert.ok(!JSON.stringify(entries).includes('key-'), 'no key is logged');
  });

  test('startingKeys() warns about a key file that users other than its owner may read or write, and not about one that is the owner\'s only', async () => {
    for (const [mode, warning] of [[0o100644, '0644'], [0o100640, '0640'], [0o100602, '0602'], [0o100600, undefined], [0o100400, undefined]] as const) {
      const entries: LogEntry[] = [];
      await startingKeys({ kind: 'file', path: '/keys', sourceName: '--api-keys-file' }, keyFileOptions(files({ '/keys': `${K1}\n` }), entries, mode));
      const warned = entries.find((entry) => entry.level === 'warn');
      assert.deepEqual(warned, warning === undefined ? undefined : { level: 'warn', msg: 'The API key file is open to other users of this machine; chmod 600 it', file: '/keys', mode: warning }, mode.toString(8));
    }
    const entries: LogEntry[] = [];
    await startingKeys({ kind: 'file', path: '/keys', sourceName: '--api-keys-file' }, { ...keyFileOptions(files({ '/keys': `${K1}\n` }), entries), fileMode: () => Promise.reject(new Error('EPERM')) });
    assert.deepEqual(entries.map((entry) => entry.level), ['info'], 'a mode that cannot be read is not warned about');
  });

  test('startingKeys() refuses to start on a key file that gives no usable key', async () => {
    const readText = files({ '/empty': '\n# none\n', '/bad': `${K1}\n\nshort\n` });
    const cases = [['/empty', /^PETSTORE_API_KEYS_FILE: \/empty holds no key/], ['/missing', /^PETSTORE_API_KEYS_FILE: cannot read \/missing \(ENOENT\)/], ['/bad', /^PETSTORE_API_KEYS_FILE: \/bad, line 3 holds a key of fewer than 16/]] as const;
    for (const [path, message] of cases) {
      await assert.rejects(startingKeys({ kind: 'file', path, sourceName: 'PETSTORE_API_KEYS_FILE' }, keyFileOptions(readText, [])), (error: unknown) => {
        assert.ok(error instanceof UsageError);
        assert.match(error.message, message);
        return true;
      });
    }
  });
});

describe('createReloadableKeys()', () => {
  test('createReloadableKeys() puts the file\'s keys in force, and keeps those in force when the file gives none or holds a bad line, named by its number', async () => {
    const contents: Record<string, string> = { '/keys': `${K1}\n${K2}\n` };
    const entries: LogEntry[] = [];
    const keys = createReloadableKeys('/keys', [K3], keyFileOptions(files(contents), entries));
    const seen = [keys.apiKeys()];
    await keys.reload();
    seen.push(keys.apiKeys());
    assert.equal(keys.apiKeys(), keys.apiKeys(), 'the same array until the next reload, so the server sees no change');
    contents['/keys'] = '# emptied by mistake\n';
    await keys.reload();
    contents['/keys'] = `${K1}\n# a comment\nbad key\n`;
    await keys.reload();
    delete contents['/keys'];
    await keys.reload();
    seen.push(keys.apiKeys());
    contents['/keys'] = `${K3}\n`;
    await keys.reload();
    seen.push(keys.apiKeys());
    assert.deepEqual(seen, [[K3], [K1, K2], [K1, K2], [K3]]);
    assert.deepEqual(entries, [
      { level: 'info', msg: 'API keys reloaded', file: '/keys', keys: 2 },
      { level: 'warn', msg: 'API keys not reloaded; the keys in force stay', file: '/keys', reason: '/keys holds no key (only blank lines and comments)' },
      { level: 'warn', msg: 'API keys not reloaded; the keys in force stay', file: '/keys', reason: entries[2]?.['reason'] },
      { level: 'warn', msg: 'API keys not reloaded; the keys in force stay', file: '/keys', reason: 'cannot read /keys (ENOENT)' },
      { level: 'info', msg: 'API keys reloaded', file: '/keys', keys: 1 },
    ]);
    assert.match(String(entries[2]?.['reason']), /^\/keys, line 3 holds a character no key can have/);
    assert.ok(!JSON.stringify(entries).includes('bad key'));
  });

  test('createReloadableKeys() runs reloads one after another, so the last signal\'s reading wins', async () => {
    let reads = 0;
    const keys = createReloadableKeys('/keys', [K1], keyFileOptions(async () => {
      reads++;
      const text = `key-number-${reads}-0123456789\n`;
      // The first read is the slowest: run together, it would finish last.
      await new Promise((done) => setTimeout(done, reads === 1 ? 30 : 0));
      return text;
    }, []));
    await Promise.all([keys.reload(), keys.reload(), keys.reload()]);
    assert.deepEqual(keys.apiKeys(), ['key-number-3-0123456789']);
  });
});
