/**
 * The host guides as a user meets them: the packed tarball installed in a new project beside
 * Express 5, Koa 3, Fastify 5, hono, NestJS 11 and hapi 21, each guide of examples/hosts/ written into it as
 * docs/embedding.md shows it, and run there by tsx and checked there by tsc, against the package's
 * built files. The frameworks are the test tools' own install, linked into the project: the install
 * stays offline.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { createPetstore } from '../../lib/index.js';
import { createHandler } from '../../server/node/index.js';
import { JSON_POST, call } from '../support/http.js';
import { consumerEnv, installTarball, packPackage } from '../support/pack.js';
import { READONLY_CONSUMER } from '../support/readonly-consumer.js';
import { API_KEYS, asShown, listen } from './host-checks.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const TOOLS = join(ROOT, 'test', 'tools', 'node_modules');

/** The packages a user of the guides installs beside the Petstore, with the test tools' copies linked in; @types/node is the project's own. */
const HOST_PACKAGES: readonly [string, string][] = [
  ...['express', 'koa', '@koa/bodyparser', 'fastify', '@fastify/middie', 'hono', '@types/express', '@types/koa', '@nestjs/common', '@nestjs/core', '@nestjs/platform-express', '@nestjs/platform-fastify', 'reflect-metadata', 'rxjs', '@hapi/hapi'].map((name): [string, string] => [name, join(TOOLS, name)]),
  ['@types/node', join(ROOT, 'node_modules', '@types', 'node')],
];

/** A pet the interface stores, one it refuses, and JSON cut short: the creates a guide's reader tries first. */
const VALID = '{"name":"Rex","categoryId":1}';
const INVALID = '{"name":"","categoryId":1}';
const MALFORMED = '{"name":"Rex",';

/**
 * The consumer's own program: every guide's app started on a free port, one valid, one invalid and
 * one malformed create sent to each, and the typed client with default options creating a pet on a storage without
 * `insertOnce`. It prints one JSON line per host.
 */
const CHECK = `
import { createServer } from 'node:http';
import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { createPetstore } from 'petstore-reference';
import type { NewPet, Pet, PetStorage } from 'petstore-reference';
import { PetstoreClient } from 'petstore-reference/client';
import { createHandler } from 'petstore-reference/server';
import { createApp as expressWithParser } from './hosts/express-json.js';
import { createApp as expressUnderPrefix } from './hosts/express-prefix.js';
import { createApp as expressPlain } from './hosts/express.js';
import { createApp as fastifyApp } from './hosts/fastify.js';
import { createApp as hapiApp } from './hosts/hapi.js';
import { serve } from './hosts/hono-node.js';
import { createApp as honoApp } from './hosts/hono.js';
import { createApp as koaApp, createAppBehindParser as koaWithParser } from './hosts/koa.js';
import { createApp as nestFastifyApp } from './hosts/nestjs-fastify.js';
import { createApp as nestExpressApp } from './hosts/nestjs.js';

const KEYS = ${JSON.stringify(API_KEYS)};
// Nest's start-up lines would mix with the lines this program prints.
Logger.overrideLogger(false);
const AUTH = { authorization: \`Bearer \${KEYS[0]}\`, 'content-type': 'application/json' };

interface Listening { origin: string; close(): Promise<void> }

async function onNode(listener: RequestListener): Promise<Listening> {
  const server = createServer(listener);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { origin: \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`, close: () => new Promise((done) => server.close(() => done())) };
}

/** A NestJS app of either adapter, started as its guide says. */
async function onNest(app: Promise<{ listen(port: number, host: string): Promise<unknown>; getUrl(): Promise<string>; close(): Promise<void> }>): Promise<Listening> {
  const nest = await app;
  await nest.listen(0, '127.0.0.1');
  return { origin: (await nest.getUrl()).replace('[::1]', '127.0.0.1'), close: () => nest.close() };
}

const HOSTS: [string, string, () => Promise<Listening>][] = [
  ['Express 5 behind express.json()', '', () => onNode(expressWithParser(KEYS))],
  ['Express 5 before its parser', '', () => onNode(expressPlain(KEYS))],
  ['Express 5 under /api', '/api', () => onNode(expressUnderPrefix(KEYS))],
  ['Koa 3 before @koa/bodyparser', '', () => onNode(koaApp(KEYS).callback())],
  ['Koa 3 behind @koa/bodyparser', '', () => onNode(koaWithParser(KEYS).callback())],
  ['Fastify 5 with @fastify/middie', '', async () => {
    const app = await fastifyApp(KEYS);
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    return { origin, close: () => app.close() };
  }],
  ['hono on node:http', '/api', async () => {
    const server = await serve(honoApp(KEYS).fetch, 0);
    return { origin: \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`, close: () => new Promise((done) => server.close(() => done())) };
  }],
  ['NestJS 11 on Express', '', () => onNest(nestExpressApp(KEYS))],
  ['NestJS 11 on Fastify', '', () => onNest(nestFastifyApp(KEYS))],
  ['hapi 21', '', async () => {
    const server = hapiApp(KEYS);
    await server.start();
    return { origin: server.info.uri, close: () => server.stop() };
  }],
];

async function create(origin: string, path: string, body: string): Promise<{ status: number; location: string | null; body: string; ms: number }> {
  const started = performance.now();
  // A guard, not a measure: a create that hangs ends the run with an error rather than never.
  const response = await fetch(origin + path, { method: 'POST', headers: AUTH, body, signal: AbortSignal.timeout(20_000) });
  const text = await response.text();
  return { status: response.status, location: response.headers.get('location'), body: text, ms: Math.round(performance.now() - started) };
}

for (const [host, prefix, start] of HOSTS) {
  const listening = await start();
  try {
    const valid = await create(listening.origin, \`\${prefix}/v1/pets\`, ${JSON.stringify(VALID)});
    const invalid = await create(listening.origin, \`\${prefix}/v1/pets\`, ${JSON.stringify(INVALID)});
    const malformed = await create(listening.origin, \`\${prefix}/v1/pets\`, ${JSON.stringify(MALFORMED)});
    console.log(JSON.stringify({ host, prefix, valid, invalid, malformed }));
  } finally {
    await listening.close();
  }
}

/** A storage as a user writes one: insert, get and list, and no insertOnce. */
function mapStorage(): PetStorage {
  const pets = new Map<number, Pet>();
  let lastId = 0;
  return {
    async insert(pet: NewPet): Promise<Pet> {
      const stored = Object.freeze({ ...pet, id: ++lastId });
      pets.set(stored.id, stored);
      return stored;
    },
    async get(id) {
      return pets.get(id);
    },
    async list({ status, after, limit }) {
      return [...pets.values()].filter((pet) => pet.id > after && (status === undefined || pet.status === status)).slice(0, limit);
    },
  };
}

const storage = mapStorage();
const listening = await onNode(createHandler({ store: createPetstore({ storage }), apiKeys: KEYS }));
try {
  const pet = await new PetstoreClient({ baseUrl: \`\${listening.origin}/v1\`, apiKey: KEYS[0] ?? '' }).createPet({ name: 'Rex', categoryId: 1 });
  console.log(JSON.stringify({ client: pet, stored: await storage.list({ status: undefined, after: 0, limit: 10 }) }));
} finally {
  await listening.close();
}
`;

/** What the consumer's program printed for one host. */
interface HostLine {
  host: string;
  prefix: string;
  valid: { status: number; location: string | null; body: string; ms: number };
  invalid: { status: number; location: string | null; body: string; ms: number };
  malformed: { status: number; location: string | null; body: string; ms: number };
}

describe('the packed package in a new project beside Express 5, Koa 3, Fastify 5, hono, NestJS 11 and hapi 21, as the guides show', () => {
  let work = '';
  let consumer = '';

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'petstore-hosts-'));
    consumer = join(work, 'consumer');
    const stage = join(work, 'stage');
    await Promise.all([mkdir(stage), mkdir(join(consumer, 'hosts'), { recursive: true })]);
    const tarball = await packPackage({ stage, destination: work });
    await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await installTarball(consumer, tarball);
    for (const [name, target] of HOST_PACKAGES) {
      await mkdir(dirname(join(consumer, 'node_modules', name)), { recursive: true });
      await symlink(target, join(consumer, 'node_modules', name), 'dir');
    }
    for (const file of await readdir(join(ROOT, 'examples', 'hosts'))) {
      await writeFile(join(consumer, 'hosts', file), `${asShown(await readFile(join(ROOT, 'examples', 'hosts', file), 'utf8'))}\n`);
    }
    await writeFile(join(consumer, 'check.ts'), CHECK);
    await writeFile(join(consumer, 'readonly.ts'), READONLY_CONSUMER);
  });

  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  test('every guide answers a valid create with 201 and its Location, an invalid one and JSON cut short with the interface\'s 400s, and the typed client creates a pet on a storage without insertOnce', { timeout: 120_000 }, async (context) => {
    const { stdout } = await run(join(ROOT, 'node_modules', '.bin', 'tsx'), ['check.ts'], { cwd: consumer, env: consumerEnv() });
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const hosts = lines.filter((line): line is HostLine & Record<string, unknown> => 'host' in line);
    assert.deepEqual(hosts.map((line) => line.host), [
      'Express 5 behind express.json()', 'Express 5 before its parser', 'Express 5 under /api', 'Koa 3 before @koa/bodyparser',
      'Koa 3 behind @koa/bodyparser', 'Fastify 5 with @fastify/middie', 'hono on node:http', 'NestJS 11 on Express', 'NestJS 11 on Fastify', 'hapi 21',
    ]);
    const bare = await listen(createHandler({ store: createPetstore(), apiKeys: API_KEYS }));
    const refused = await call(bare, 'POST', '/v1/pets', { headers: JSON_POST, body: INVALID });
    const unparsed = await call(bare, 'POST', '/v1/pets', { headers: JSON_POST, body: MALFORMED }).finally(() => bare.close());
    assert.deepEqual([refused.status, unparsed.status], [400, 400]);
    for (const { host, prefix, valid, invalid, malformed } of hosts) {
      assert.equal(valid.status, 201, `${host}: ${valid.body}`);
      assert.deepEqual(JSON.parse(valid.body), { id: 1, name: 'Rex', categoryId: 1 }, host);
      assert.equal(valid.location, `${prefix}/v1/pets/1`, host);
      assert.deepEqual([invalid.status, invalid.body], [400, refused.text], host);
      assert.deepEqual([malformed.status, malformed.body], [400, unparsed.text], host);
      context.diagnostic(`${host}: 201 in ${valid.ms} ms, 400 in ${invalid.ms} ms`);
    }
    const clientLine = lines.find((line) => 'client' in line);
    assert.deepEqual(clientLine, { client: { id: 1, name: 'Rex', categoryId: 1 }, stored: [{ name: 'Rex', categoryId: 1, id: 1 }] });
  });

  test('the guides and the program type-check strictly against the installed package, and assigning to a returned pet\'s field does not', async () => {
    await writeFile(join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', lib: ['ES2023'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true, verbatimModuleSyntax: true, noEmit: true, skipLibCheck: true, types: ['node'],
      },
      files: ['check.ts', 'readonly.ts'],
    }));
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    const result = await run(tsc, ['-p', consumer], { cwd: consumer }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
    assert.equal(result.stdout.trim(), '');
    // The same project with one `@ts-expect-error` taken away: the assignment it excused is an error.
    await writeFile(join(consumer, 'readonly.ts'), READONLY_CONSUMER.replace('  // @ts-expect-error a created pet is read-only\n', ''));
    const failed = await run(tsc, ['-p', consumer], { cwd: consumer }).then(() => ({ stdout: '' }), (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    assert.match(failed.stdout, /readonly\.ts\(\d+,\d+\): error TS2540: Cannot assign to 'name' because it is a read-only property/);
  });
});
