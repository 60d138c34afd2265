/**
 * Baseline "hello": the least a NestJS 11 (Express) app can do per request — one
 * controller returning a small JSON object, no middleware, guards, pipes or logging.
 * Scenarios that measure our request pipeline (e.g. /health/live) are compared with it.
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

@Controller()
class HelloController {
  @Get('hello')
  hello(): { status: string } {
    return { status: 'ok' };
  }
}

@Module({ controllers: [HelloController] })
class HelloModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(HelloModule, { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

void main();
