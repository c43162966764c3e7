import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { main } from '../../examples/embed-in-process.js';
import { runExample } from './run-example.js';

const EXPECTED = [
  'created {"id":1,"name":"Rex","categoryId":1,"status":"available"}',
  'available: Rex',
  'first page of 2: 1, 2',
  'getPet(1): Rex',
  'rejected: 400 validation_failed: color, name, categoryId',
];

describe('examples/embed-in-process.ts', () => {
  test('embed-in-process main() creates, lists, fetches and shows a rejected input', async () => {
    const lines: string[] = [];
    await main((line) => lines.push(line));
    assert.deepEqual(lines, EXPECTED);
  });

  test('embed-in-process runs with npx tsx and prints the same lines', async () => {
    const example = runExample('embed-in-process.ts', {}, ['npx', '--no-install', 'tsx']);
    assert.equal(await example.exited, 0, example.stderr());
    assert.deepEqual(example.stdout().trimEnd().split('\n'), EXPECTED);
  });
});
