/**
 * Baseline "pk-select": bare NestJS 11 + TypeORM answering one primary-key SELECT
 * against the real Postgres through a pool of 10. Scenarios that read the database
 * (e.g. the audit list) are compared with it: it is the floor of what any
 * database-backed endpoint in this stack costs.
 */
import 'reflect-metadata';
import { Controller, Get, Module, NotFoundException, Param, ParseUUIDPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import express from 'express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { Column, Entity, PrimaryColumn, Repository } from 'typeorm';

@Entity('bench_item')
class BenchItem {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  @Column('integer')
  value: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

@Controller('items')
class ItemsController {
  constructor(@InjectRepository(BenchItem) private readonly items: Repository<BenchItem>) {}

  @Get(':id')
  async get(@Param('id', ParseUUIDPipe) id: string): Promise<BenchItem> {
    const item = await this.items.findOneBy({ id });
    if (!item) throw new NotFoundException();
    return item;
  }
}

@Module({
  imports: [
    TypeOrmModule.forRoot({
      type: 'postgres',
      url: process.env.DATABASE_URL,
      entities: [BenchItem],
      synchronize: false,
      extra: { max: 10 },
    }),
    TypeOrmModule.forFeature([BenchItem]),
  ],
  controllers: [ItemsController],
})
class PkSelectModule {}

async function main(): Promise<void> {
  if (process.env.BASELINE_SHARED_PROTOTYPES === '1') return mainWithSharedPrototypes();
  const app = await NestFactory.create(PkSelectModule, { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

/**
 * Baseline "pk-select-shared" (context): the same app, with the one server change the service
 * makes (src/common/express-adapter.ts, decision 0012): requests and responses are built on
 * Express's prototypes, so Express's per-request Object.setPrototypeOf changes nothing.
 * Kept inline: a baseline is a standalone bare app.
 */
async function mainWithSharedPrototypes(): Promise<void> {
  const expressApp = express();
  const adapter = new ExpressAdapter(expressApp);
  const app = await NestFactory.create(PkSelectModule, adapter, { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  await app.init();
  function Request(this: IncomingMessage, socket: Socket): void {
    (IncomingMessage as unknown as (this: IncomingMessage, s: Socket) => void).call(this, socket);
  }
  Request.prototype = expressApp.request;
  function Response(this: ServerResponse, req: IncomingMessage): void {
    (ServerResponse as unknown as (this: ServerResponse, r: IncomingMessage) => void).call(this, req);
  }
  Response.prototype = expressApp.response;
  const server = createServer(
    { IncomingMessage: Request as unknown as typeof IncomingMessage, ServerResponse: Response as unknown as typeof ServerResponse },
    expressApp,
  );
  server.listen(Number(process.env.PORT), '127.0.0.1');
}

void main();
