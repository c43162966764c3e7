import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { PROFILE, report } from './settings.js';

// Issue 28, item 3: a V8 Map holds at most 2^24 entries. Before, keyed create number 16,777,217
// stored its pet and then threw ("Map maximum size exceeded"), and a retry stored another pet. The
// in-memory storage now keeps its keys in maps of at most 2^20 entries; npm test checks the mechanism
// with small shards (test/lib/storage/memory/key-index.test.ts), the long run at the real size.

/** Keyed creates of the long run: past 2^24 by a few. */
const COUNT = 2 ** 24 + 84;

/** Old space of the child (MiB): about 150 heap bytes a create, 2.5 GB in all, with room to spare. */
const OLD_SPACE_MIB = 6_144;

describe('the in-memory storage past 2^24 keys', { skip: PROFILE.name === 'long' ? false : 'the long profile only (npm run test:robust): 16.8 million creates take minutes and about 3 GB' }, () => {
  test(`keyed creates on the in-memory storage go on past 2^24 (${COUNT.toLocaleString('en-US')}), and a retry of the last key replays its pet`, async () => {
    const child = spawn(process.execPath, [`--max-old-space-size=${OLD_SPACE_MIB}`, '--import', 'tsx', join(import.meta.dirname, 'many-keys.ts'), String(COUNT)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (output += chunk));
    const started = Date.now();
    const code = await new Promise<number | null>((done) => child.once('close', done));
    const seen = JSON.parse(output.trim()) as { created: number; failure?: string; retry: { id: number; isReplay: boolean } | string; lastIds: number[] };
    report({ part: 'keyed creates past 2^24, memory', cases: COUNT, failures: seen.failure === undefined ? 0 : 1, note: `${seen.created.toLocaleString('en-US')} created in ${Math.round((Date.now() - started) / 1000)} s${seen.failure === undefined ? '' : `; ${seen.failure}`}` });
    assert.equal(code, 0);
    assert.equal(seen.failure, undefined);
    assert.equal(seen.created, COUNT);
    assert.deepEqual(seen.retry, { id: COUNT, isReplay: true });
    assert.deepEqual(seen.lastIds, [COUNT], 'no pet beyond the last create');
  });
});
