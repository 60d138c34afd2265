import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { CommonModule } from '../common/common.module';
import { DirectoryEventsModule } from '../directory-events/directory-events.module';
import { JobsModule } from '../jobs/jobs.module';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookSubscription } from './entities/webhook-subscription.entity';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookDeliveriesController, WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** Audit events and directory events delivered to customers' endpoints as Standard Webhooks (docs/audit.md, docs/events.md). */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookSubscription, WebhookDelivery]), CommonModule, AuditModule, DirectoryEventsModule, JobsModule],
  controllers: [WebhooksController, WebhookDeliveriesController],
  providers: [WebhooksRepository, WebhooksService, WebhookDispatcher, WebhookDeliveryWorker],
})
export class WebhooksModule {}
