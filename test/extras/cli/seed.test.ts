import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { call } from '../../support/http.js';
import { jsonLines, ROOT, runMain, spawnServer } from '../../support/process.js';

const AUTH = { authorization: 'Bearer seed-key-0123456789' };
const EXAMPLE = join(ROOT, 'examples', 'seed-pets.json');

describe('cli seeding (--seed, PETSTORE_SEED)', () => {
  let directory = '';
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-seed-'));
  });
  after(() => rm(directory, { recursive: true, force: true }));

  test('main --seed creates the example pets in file order and says so; a restart over the same data file skips, never duplicating', async () => {
    const dataFile = join(directory, 'seeded.journal');
    const first = spawnServer({ PETSTORE_API_KEYS: 'seed-key-0123456789', PETSTORE_DATA: dataFile }, ['--seed', EXAMPLE]);
    try {
      await first.ready;
      const pets = (await call(first, 'GET', '/v1/pets?limit=100', { headers: AUTH })).json as { id: number; name: string }[];
      assert.deepEqual(pets.map((pet) => [pet.id, pet.name]), [[1, 'Rex'], [2, 'Tom'], [3, 'Bella'], [4, 'Nemo'], [5, 'Luna'], [6, 'Kiwi'], [7, 'Max'], [8, 'Coco'], [9, 'Shelly'], [10, 'Oscar']]);
    } finally {
      first.child.kill('SIGTERM');
      assert.equal(await first.exited, 0);
    }
    const seeded = jsonLines(first.stderr()).find((line) => line['msg'] === 'Pets seeded');
    assert.deepEqual([seeded?.['level'], seeded?.['file'], seeded?.['seeded']], ['info', EXAMPLE, 10]);

    const second = spawnServer({ PETSTORE_API_KEYS: 'seed-key-0123456789', PETSTORE_DATA: dataFile, PETSTORE_SEED: EXAMPLE });
    try {
      await second.ready;
      const pets = (await call(second, 'GET', '/v1/pets?limit=100', { headers: AUTH })).json as unknown[];
      assert.equal(pets.length, 10, 'nothing was seeded twice');
    } finally {
      second.child.kill('SIGTERM');
      assert.equal(await second.exited, 0);
    }
    const skipped = jsonLines(second.stderr()).find((line) => line['msg'] === 'Seed skipped');
    assert.equal(skipped?.['reason'], 'the store already holds pets');
    assert.equal(skipped?.['level'], 'info');
  });

  test('main refuses a seed file with an invalid entry before listening or storing anything, naming each index and problem (exit 2)', async () => {
    const seed = join(directory, 'invalid.json');
    const dataFile = join(directory, 'untouched.journal');
    await writeFile(seed, JSON.stringify([{ name: 'Fine', categoryId: 1 }, { name: '', categoryId: 'one' }, { name: 'Fine too', categoryId: 2 }, { name: 'Odd', categoryId: 3, colour: 'red' }]));
    const { code, stdout, stderr } = await runMain({ PETSTORE_API_KEYS: 'seed-key-0123456789', PETSTORE_DATA: dataFile }, ['--seed', seed]);
    assert.equal(code, 2);
    assert.ok(!stdout.includes('listening'));
    const message = stderr.slice(stderr.indexOf('petstore-reference: '));
    assert.equal(message, [
      `petstore-reference: --seed: ${seed}: Cannot seed pets: 3 problems, first: [1].name: \`name\` must not be empty`,
      '  [1].name: `name` must not be empty',
      '  [1].categoryId: `categoryId` must be an integer, not a string',
      '  [3].colour: `colour` is not a field of NewPet (allowed: `name`, `categoryId`, `status`)',
      '',
    ].join('\n'));
    // Nothing was stored: the file holds no pet, so a server over it starts empty.
    const after = spawnServer({ PETSTORE_API_KEYS: 'seed-key-0123456789', PETSTORE_DATA: dataFile });
    try {
      await after.ready;
      assert.deepEqual((await call(after, 'GET', '/v1/pets', { headers: AUTH })).json, []);
    } finally {
      after.child.kill('SIGTERM');
      assert.equal(await after.exited, 0);
    }
  });

  test('main refuses a seed file that cannot be read, is not JSON or is not an array, with exit code 2', async () => {
    const notJson = join(directory, 'not.json');
    const notArray = join(directory, 'object.json');
    await writeFile(notJson, '[{"name": "Rex",');
    await writeFile(notArray, '{"name":"Rex","categoryId":1}');
    const cases: [Record<string, string>, string[], RegExp][] = [
      [{}, ['--seed', join(directory, 'missing.json')], /^petstore-reference: --seed: cannot read .*missing\.json \(ENOENT\)\n$/],
      [{ PETSTORE_SEED: notJson }, [], /^petstore-reference: PETSTORE_SEED: .*not\.json is not JSON \(/],
      [{}, [`--seed=${notArray}`], /^petstore-reference: --seed: .*object\.json: Cannot seed pets: The seed must be a JSON array of NewPets, not an object\n$/],
    ];
    for (const [env, args, message] of cases) {
      const { code, stderr } = await runMain({ PETSTORE_API_KEYS: 'seed-key-0123456789', PETSTORE_LOG_LEVEL: 'error', ...env }, args);
      assert.equal(code, 2, args.join(' '));
      assert.match(stderr, message);
    }
    assert.deepEqual((await readdir(directory)).filter((file) => file.endsWith('.lock')), [], 'no data file lock is left behind');
  });
});
