import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Logger, Module } from '@nestjs/common';
import type { INestApplication, MiddlewareConsumer, NestModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { createApp as createExpressApp } from '../../examples/hosts/nestjs.js';
import { createApp as createFastifyApp } from '../../examples/hosts/nestjs-fastify.js';
import { createPetstore } from '../../lib/index.js';
import { createHandler } from '../../server/node/index.js';
import { closingAfter } from '../support/closing.js';
import { call, JSON_POST } from '../support/http.js';
import { API_KEYS, assertSameAsBare, hostOf, PARSED_CASES, REFUSED_CASES } from './host-checks.js';
import type { RunningHost } from './host-checks.js';

/** Starts a NestJS app on 127.0.0.1, port 0. */
async function start(app: Promise<INestApplication>): Promise<RunningHost> {
  const started = await app;
  await started.listen(0, '127.0.0.1');
  const host = hostOf(started.getHttpServer() as Server);
  return { origin: host.origin, close: () => started.close() };
}

/** A NestJS app on Express, without Nest's JSON parser, whose module's middleware consumer does what `mount` says. */
async function expressAppWith(mount: (consumer: MiddlewareConsumer) => void): Promise<INestApplication> {
  class AppModule implements NestModule {
    configure(consumer: MiddlewareConsumer): void {
      mount(consumer);
    }
  }
  Module({})(AppModule);
  return NestFactory.create(AppModule, new ExpressAdapter(), { bodyParser: false });
}

// A guard, not a measure: a handler waiting on a body its host already read would otherwise hang the run.
describe('NestJS 11 hosts (examples/hosts/nestjs*.ts)', { timeout: 60_000 }, () => {
  // Nest's start-up lines would fill the test report.
  before(() => Logger.overrideLogger(false));
  after(() => Logger.overrideLogger(['log', 'error', 'warn']));

  test('NestJS on Express with its JSON parser and the middleware consumer answers every create, a list and a 401 as the bare handler does, JSON it cannot parse included', async () => {
    await closingAfter(start(createExpressApp(API_KEYS)), async (host) => {
      await assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES]);
      const elsewhere = await call(host, 'GET', '/elsewhere');
      assert.deepEqual([elsewhere.status, (elsewhere.json as { statusCode?: unknown }).statusCode], [404, 404]);
      // JSON refused on a route that is not the Petstore's is Nest's to answer.
      const refused = await call(host, 'POST', '/elsewhere', { headers: JSON_POST, body: '{"name":' });
      assert.deepEqual([refused.status, (refused.json as { statusCode?: unknown }).statusCode], [400, 400]);
    });
  });

  test('NestJS on Fastify with the middleware consumer answers every create, a list and a 401 as the bare handler does, JSON it cannot parse included', async () => {
    await closingAfter(start(createFastifyApp(API_KEYS)), async (host) => {
      await assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES]);
      assert.equal((await call(host, 'GET', '/elsewhere')).status, 404);
    });
  });

  test('NestJS on Express with the middleware consumer under a path of its own (forRoutes(\'api/*path\')) serves the original URL with Location and Link as sent', async () => {
    const handler = createHandler({ store: createPetstore(), apiKeys: API_KEYS, basePath: '/api/v1' });
    await closingAfter(start(expressAppWith((consumer) => consumer.apply(handler).forRoutes('api/*path'))), async (host) => {
      const created = await call(host, 'POST', '/api/v1/pets', { headers: JSON_POST, body: '{"name":"Rex","categoryId":1}' });
      assert.deepEqual([created.status, created.headers['location']], [201, '/api/v1/pets/1']);
      assert.equal((await call(host, 'GET', '/v1/pets')).status, 404);
    });
  });

  test('NestJS on Express with the handler through app.use() answers as the bare handler does', async () => {
    const handler = createHandler({ store: createPetstore(), apiKeys: API_KEYS });
    const app = expressAppWith(() => undefined).then((nest) => nest.use(handler));
    await closingAfter(start(app), (host) => assertSameAsBare(host, [...PARSED_CASES, ...REFUSED_CASES]));
  });
});
