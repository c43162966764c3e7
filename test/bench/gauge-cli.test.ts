import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const GAUGE = resolve(import.meta.dirname, '..', '..', 'bench', 'gauge.ts');

/** Runs `npm run bench:gauge -- <args>` as far as it goes without building or measuring: its exit code and output. */
async function gauge(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', GAUGE, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

test('bench:gauge --route refuses a text that names no route, listing the routes, before it builds anything', async () => {
  const { code, stderr } = await gauge('--route', 'PUT /v1/pets');
  assert.equal(code, 1);
  assert.match(stderr, /--route names no route: "PUT \/v1\/pets" is in none of GET \/v1\/pets\?limit=20, .*POST \/v1\/pets \(201\)/);
});

test('bench:gauge --help names --route', async () => {
  const { code, stdout } = await gauge('--help', '--route', 'POST /v1/pets (201)');
  assert.equal(code, 0);
  assert.match(stdout, /--route <text> {4}measure only the routes whose name contains the text/);
});

test('bench:gauge --idle takes whole seconds from 0, and refuses others before it builds anything', async () => {
  for (const idle of ['-1', '1.5', 'abc']) {
    const { code, stderr } = await gauge(`--idle=${idle}`);
    assert.equal(code, 1);
    assert.equal(stderr, `bench:gauge: --idle needs a whole number of at least 0, not ${JSON.stringify(idle)}\n`);
  }
  const { code, stdout } = await gauge('--help', '--idle', '0');
  assert.equal(code, 0);
  assert.match(stdout, /--idle <s> {8}seconds both servers idle after their start and fill, before the warm-up/);
});

test('bench:gauge --rounds needs at least 1', async () => {
  const { code, stderr } = await gauge('--rounds', '0');
  assert.equal(code, 1);
  assert.match(stderr, /--rounds needs a whole number of at least 1, not "0"/);
});
