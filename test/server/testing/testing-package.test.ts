import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { buildPackage } from '../../support/runtimes.js';
import type { PackageBuild } from '../../support/runtimes.js';

const run = promisify(execFile);

describe('petstore-reference/testing imported by a consumer', () => {
  let build: PackageBuild;
  before(async () => {
    build = await buildPackage();
  });
  after(() => build.remove());

  /** Runs a module in a child `node` started in the built package's directory, with no test runner's environment. */
  async function runModule(source: string): Promise<{ stdout: string; stderr: string }> {
    // NODE_TEST_CONTEXT, set by `node --test` for its children, would make node:test in the child report to this runner.
    // The reporter is named: the default one changed from TAP to spec in Node 23, and these tests read TAP's summary.
    return run(process.execPath, ['--test-reporter=tap', '--input-type=module', '--eval', source], { cwd: build.directory, env: { PATH: process.env['PATH'] ?? '' } });
  }

  test('petstore-reference/testing starts no test run when imported, though it re-exports the contract suite built on node:test', async () => {
    const { stdout, stderr } = await runModule([
      "const testing = await import('petstore-reference/testing');",
      "if (typeof testing.inject !== 'function' || typeof testing.runStorageContract !== 'function') process.exit(3);",
      "const answer = await testing.inject({ store: (await import('petstore-reference')).createPetstore(), apiKeys: ['consumer-key-0123456789'] }, { url: '/v1/pets' });",
      'if (answer.status !== 401) process.exit(4);',
    ].join('\n'));
    assert.equal(stdout, '');
    assert.equal(stderr, '');
  });

  test('petstore-reference/testing starts a test run once runStorageContract is called, as the check above would see', async () => {
    const { stdout } = await runModule([
      "import { createMemoryStorage } from 'petstore-reference';",
      "import { runStorageContract } from 'petstore-reference/testing';",
      "runStorageContract('memory', { makeStorage: () => createMemoryStorage() });",
    ].join('\n'));
    assert.match(stdout, /^# tests [1-9]/m);
    assert.match(stdout, /^# fail 0$/m);
  });
});
