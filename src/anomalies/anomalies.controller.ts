import { Doc } from '../api-docs/decorators';
import { ActionRoute, BAD_QUERY, ReadRoute } from '../api-docs/routes';
import { Param, Query } from '@nestjs/common';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import type { EndUserPrincipal } from '../common/auth/principal';
import { AnomaliesService } from './anomalies.service';
import { AnomalyListQueryDto } from './dto/anomaly-query.dto';
import { AnomalyListResponse, AnomalyResponse } from './dto/anomaly.response';
import { EndUserApi } from '../common/controller-kinds';

@EndUserApi('user/security/anomalies', 'anomalies')
export class AnomaliesController {
  constructor(private readonly anomalies: AnomaliesService) {}

  @Doc(
    'List my sign-in anomalies',
    'Unusual sign-ins of the calling end user (new device, new IP, new country, impossible travel), newest first.',
  )
  @ReadRoute('', AnomalyListResponse, "The caller's anomalies, newest first", BAD_QUERY)
  async list(@CurrentPrincipal() user: EndUserPrincipal, @Query() query: AnomalyListQueryDto) {
    return { results: await this.anomalies.list(user, query.limit) };
  }

  @Doc('Acknowledge an anomaly', 'Marks it as seen by the user. Idempotent.')
  @ActionRoute(':id/ack', 200, AnomalyResponse, 'The anomaly; a second call returns the same acknowledged_at', [
    404,
    'not_found',
    "Unknown id, or another user's anomaly",
  ])
  acknowledge(@CurrentPrincipal() user: EndUserPrincipal, @Param('id') id: string) {
    return this.anomalies.acknowledge(user, id);
  }
}
