// NestJS 11 on its Express adapter: the Petstore as middleware through Nest's middleware consumer, beside the app's own routes.
// docs/embedding.md shows this file as it is, but for these imports, which from the installed package read:
//   import { createPetstore } from 'petstore-reference';
//   import { createHandler, parserErrorHandler } from 'petstore-reference/server';
import { Module } from '@nestjs/common';
import type { MiddlewareConsumer, NestModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createPetstore } from '../../lib/index.js';
import { createHandler, parserErrorHandler } from '../../server/node/index.js';

/** A NestJS app on Express with the Petstore at /v1, behind Nest's JSON parser; a module without decorators. */
export async function createApp(apiKeys: readonly string[]): Promise<NestExpressApplication> {
  const petstore = createHandler({ store: createPetstore(), apiKeys });
  class AppModule implements NestModule {
    configure(consumer: MiddlewareConsumer): void {
      // Express strips what '*path' matched, leaving `/`: the handler then serves `request.originalUrl`.
      consumer.apply(petstore).forRoutes('*path');
    }
  }
  Module({})(AppModule);
  const app = await NestFactory.create<NestExpressApplication>(AppModule, new ExpressAdapter(), { bodyParser: false });
  // Nest's JSON parser, then the Petstore's answer to JSON it refuses, before Nest's exception filter answers it its own way.
  app.useBodyParser('json');
  app.use(parserErrorHandler(petstore));
  return app;
}
