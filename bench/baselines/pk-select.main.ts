/**
 * Baseline "pk-select": bare NestJS 11 + TypeORM answering one primary-key SELECT
 * against the real Postgres through a pool of 10. Scenarios that read the database
 * (e.g. the audit list) are compared with it: it is the floor of what any
 * database-backed endpoint in this stack costs.
 */
import 'reflect-metadata';
import { Controller, Get, Module, NotFoundException, Param, ParseUUIDPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
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
  const app = await NestFactory.create(PkSelectModule, { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

void main();
