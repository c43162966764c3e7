import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { createPetstore } from '../../lib/index.js';
import { createHandler } from '../../server/node/index.js';
import { call, JSON_POST } from '../support/http.js';
import { codeBlocks } from '../support/readme.js';
import { API_KEYS, asShown, listen } from './host-checks.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

test('docs/embedding.md shows every host guide of examples/hosts/ as it is, the file test/hosts/ runs', async () => {
  const blocks = codeBlocks(await readFile(join(ROOT, 'docs', 'embedding.md'), 'utf8'), 'ts').map((block) => block.trimEnd());
  const files = (await readdir(join(ROOT, 'examples', 'hosts'))).filter((file) => file.endsWith('.ts')).sort();
  assert.deepEqual(files, ['express-json.ts', 'express-prefix.ts', 'express.ts', 'fastify.ts', 'hapi.ts', 'hono-node.ts', 'hono.ts', 'koa.ts', 'nestjs-fastify.ts', 'nestjs.ts']);
  for (const file of files) {
    const shown = asShown(await readFile(join(ROOT, 'examples', 'hosts', file), 'utf8'));
    assert.ok(blocks.includes(shown), `docs/embedding.md does not show examples/hosts/${file} as it is:\n${shown}`);
    assert.ok(!shown.includes("from '../"), `examples/hosts/${file} imports a file of the repository that the guide cannot name`);
  }
});

test('docs/embedding.md shows the 500 a body read and left empty gets, as the handler answers it', async () => {
  const handler = createHandler({ store: createPetstore(), apiKeys: API_KEYS, logError: () => undefined });
  // A middleware that reads the body and keeps nothing of it, as a parser of another media type might.
  const host = await listen((request, response) => void request.resume().on('end', () => handler(request, response)));
  try {
    const reply = await call(host, 'POST', '/v1/pets', { headers: JSON_POST, body: '{"name":"Rex","categoryId":1}' });
    assert.equal(reply.status, 500);
    assert.ok(codeBlocks(await readFile(join(ROOT, 'docs', 'embedding.md'), 'utf8'), 'text').includes(`${reply.text}\n`), reply.text);
  } finally {
    await host.close();
  }
});
