import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { CreateWebhookDto, DeliveriesQueryDto, UpdateWebhookDto, WebhookWorkspaceQueryDto } from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';

@ApiTags('webhooks')
@Controller('developer/webhooks')
@Auth('developer')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  /** The secret (whsec_…) is in this answer only. */
  @Post()
  create(@CurrentPrincipal() p: DeveloperPrincipal, @Body() dto: CreateWebhookDto, @ReqMeta() meta: RequestMeta) {
    return this.webhooks.create(p, dto, meta);
  }

  @Get()
  async list(@CurrentPrincipal() p: DeveloperPrincipal, @Query() query: WebhookWorkspaceQueryDto) {
    return { results: await this.webhooks.list(p, query.workspace_id) };
  }

  @Get(':id')
  get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.webhooks.get(p, id);
  }

  @Patch(':id')
  update(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Body() dto: UpdateWebhookDto, @ReqMeta() meta: RequestMeta) {
    return this.webhooks.update(p, id, dto, meta);
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.webhooks.remove(p, id, meta);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  rotateSecret(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.webhooks.rotateSecret(p, id, meta);
  }

  /** Queues a webhook_test message; answers its delivery (202). */
  @Post(':id/test')
  @HttpCode(202)
  test(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.webhooks.sendTest(p, id);
  }

  @Get(':id/deliveries')
  async deliveries(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Query() query: DeliveriesQueryDto) {
    return { results: await this.webhooks.deliveries(p, id, query.limit ?? 50) };
  }
}

@ApiTags('webhooks')
@Controller('developer/webhook-deliveries')
@Auth('developer')
export class WebhookDeliveriesController {
  constructor(private readonly webhooks: WebhooksService) {}

  /** Sends the delivery again now; answers it (202). */
  @Post(':id/retry')
  @HttpCode(202)
  retry(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.webhooks.retry(p, id);
  }
}
