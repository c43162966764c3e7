import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { installTarball, packPackage } from '../../support/pack.js';
import { jsonLines, ROOT } from '../../support/process.js';

const run = promisify(execFile);
const MANIFEST = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string>; scripts: Record<string, string> };
const VERSION = MANIFEST.version;

/** The package built into a directory of its own (not dist/, which other tests run at the same time), packed and installed into a new project. */
async function installPackedCopy(stage: string, consumer: string): Promise<void> {
  const tarball = await packPackage({ stage, destination: consumer });
  await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await installTarball(consumer, tarball);
}

describe('the petstore-reference command of the packed package', () => {
  let stage = '';
  let consumer = '';

  before(async () => {
    stage = await mkdtemp(join(tmpdir(), 'petstore-bin-stage-'));
    consumer = await mkdtemp(join(tmpdir(), 'petstore-bin-consumer-'));
    await installPackedCopy(stage, consumer);
  });

  after(async () => {
    await rm(stage, { recursive: true, force: true });
    await rm(consumer, { recursive: true, force: true });
  });

  test('npm start runs the file the petstore-reference command runs, so both start the same server', () => {
    assert.equal(MANIFEST.scripts['start'], `node ${MANIFEST.bin['petstore-reference']}`);
  });

  test('npx petstore-reference --version prints the version of package.json', async () => {
    const { stdout } = await run('npx', ['--no-install', 'petstore-reference', '--version'], { cwd: consumer });
    assert.equal(stdout, `${VERSION}\n`);
  });

  test('npx petstore-reference serve --port 0 starts the server, whose /healthz answers 200, and stops on SIGTERM', async () => {
    // A process group of its own, so that SIGTERM reaches the server behind npx.
    const child = spawn('npx', ['--no-install', 'petstore-reference', 'serve', '--port', '0'], {
      cwd: consumer,
      detached: true,
      env: { ...process.env, PETSTORE_API_KEYS: 'packed-bin-key-0123', PORT: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => {
      stderr += data.toString('utf8');
    });
    const closed = new Promise<void>((done) => child.once('close', () => done()));
    try {
      const url = await new Promise<string>((found, fail) => {
        let stdout = '';
        child.stdout.on('data', (data: Buffer) => {
          stdout += data.toString('utf8');
          const match = /^Petstore listening on (http:\/\/\S+)$/m.exec(stdout);
          if (match?.[1] !== undefined) found(match[1]);
        });
        closed.then(() => fail(new Error(`npx petstore-reference serve ended before listening: ${stderr}`)));
      });
      const health = await fetch(`${new URL(url).origin}/healthz`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok' });
      assert.equal((await fetch(`${url}/pets`, { headers: { authorization: 'Bearer packed-bin-key-0123' } })).status, 200);
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      await closed;
    }
    assert.ok(jsonLines(stderr).some((line) => line['msg'] === 'Process exiting'), stderr);
  });
});
