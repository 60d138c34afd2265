/**
 * Baseline "page-select": bare NestJS 11 + TypeORM answering one keyset page of 50
 * events (newest first, `created_at < cursor`, pool 10) from a table shaped like
 * audit_events and seeded like the audit scenarios (1,000,000 rows, same column
 * values). No authentication, no validation, no logging: the floor of what any
 * implementation of the audit page costs in this stack. The audit scenarios'
 * context rows compare with it; their targets stay against `pk-select`.
 */
import 'reflect-metadata';
import { Controller, Get, Module, Query } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { Column, Entity, LessThan, PrimaryColumn, Repository } from 'typeorm';

@Entity('bench_event')
class BenchEvent {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId: string;
  @Column('text', { name: 'event_type' }) eventType: string;
  @Column('text') severity: string;
  @Column('text', { name: 'actor_type' }) actorType: string;
  @Column('text', { name: 'actor_id', nullable: true }) actorId: string | null;
  @Column('text', { name: 'actor_email', nullable: true }) actorEmail: string | null;
  @Column('text', { name: 'target_type', nullable: true }) targetType: string | null;
  @Column('text', { name: 'target_id', nullable: true }) targetId: string | null;
  @Column('text', { name: 'oauth_client_id', nullable: true }) oauthClientId: string | null;
  @Column('text', { name: 'ip_address', nullable: true }) ipAddress: string | null;
  @Column('text', { name: 'user_agent', nullable: true }) userAgent: string | null;
  @Column('text', { name: 'request_id', nullable: true }) requestId: string | null;
  @Column('text') message: string;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}

@Controller('events')
class EventsController {
  constructor(@InjectRepository(BenchEvent) private readonly events: Repository<BenchEvent>) {}

  @Get()
  async page(@Query('workspace_id') workspaceId: string, @Query('cursor') cursor: string) {
    const rows = await this.events.find({
      where: { workspaceId, createdAt: LessThan(new Date(cursor)) },
      order: { createdAt: 'DESC' },
      take: 51,
    });
    const results = rows.slice(0, 50);
    return { results, next_cursor: rows.length > 50 ? results[49].createdAt : null, limit: 50 };
  }
}

@Module({
  imports: [
    TypeOrmModule.forRoot({
      type: 'postgres',
      url: process.env.DATABASE_URL,
      entities: [BenchEvent],
      synchronize: false,
      extra: { max: 10 },
    }),
    TypeOrmModule.forFeature([BenchEvent]),
  ],
  controllers: [EventsController],
})
class PageSelectModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(PageSelectModule, { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}

void main();
