// NestJS 11 on its Fastify adapter: the Petstore as middleware through Nest's middleware consumer, which runs before Fastify reads a body.
// docs/embedding.md shows this file as it is, but for these imports, which from the installed package read:
//   import { createPetstore } from 'petstore-reference';
//   import { createHandler } from 'petstore-reference/server';
import { Module } from '@nestjs/common';
import type { MiddlewareConsumer, NestModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createPetstore } from '../../lib/index.js';
import { createHandler } from '../../server/node/index.js';

/** A NestJS app on Fastify with the Petstore at /v1; the handler reads and checks the body itself. */
export async function createApp(apiKeys: readonly string[]): Promise<NestFastifyApplication> {
  const petstore = createHandler({ store: createPetstore(), apiKeys });
  class AppModule implements NestModule {
    configure(consumer: MiddlewareConsumer): void {
      consumer.apply(petstore).forRoutes('*path');
    }
  }
  Module({})(AppModule);
  return NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter());
}
