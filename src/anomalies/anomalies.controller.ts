import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { EndUserPrincipal } from '../common/auth/principal';
import { AnomaliesService } from './anomalies.service';
import { AnomalyListQueryDto } from './dto/anomaly-query.dto';
import { AnomalyListResponse, AnomalyResponse } from './dto/anomaly.response';

@ApiTags('anomalies')
@Controller('user/security/anomalies')
@Auth('end-user')
export class AnomaliesController {
  constructor(private readonly anomalies: AnomaliesService) {}

  @Get()
  @ApiOkResponse({ type: AnomalyListResponse, description: "The caller's anomalies, newest first" })
  async list(@CurrentPrincipal() user: EndUserPrincipal, @Query() query: AnomalyListQueryDto) {
    return { results: await this.anomalies.list(user, query.limit) };
  }

  @Post(':id/ack')
  @HttpCode(200)
  @ApiOkResponse({ type: AnomalyResponse, description: 'The anomaly; a second call returns the same acknowledged_at' })
  @ApiNotFoundResponse({ description: "Unknown id, or another user's anomaly" })
  acknowledge(@CurrentPrincipal() user: EndUserPrincipal, @Param('id') id: string) {
    return this.anomalies.acknowledge(user, id);
  }
}
