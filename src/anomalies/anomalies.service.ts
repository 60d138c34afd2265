import { Injectable } from '@nestjs/common';
import type { EndUserPrincipal } from '../common/auth/principal';
import { DomainError } from '../common/errors';
import { isUuid } from '../common/ids';
import { AnomaliesRepository } from './anomalies.repository';
import { ANOMALY_LIST_DEFAULT } from './dto/anomaly-query.dto';
import { AnomalyView, toAnomalyView } from './entities/security-anomaly.entity';
import { COMMON_ERRORS } from '../common/common.errors';

/** The end user's view of their own anomalies: list and acknowledge. */
@Injectable()
export class AnomaliesService {
  constructor(private readonly anomalies: AnomaliesRepository) {}

  async list(user: EndUserPrincipal, limit = ANOMALY_LIST_DEFAULT): Promise<AnomalyView[]> {
    const rows = await this.anomalies.listForUser(user.workspaceId, user.userId, limit);
    return rows.map(toAnomalyView);
  }

  /** Idempotent: the first acknowledgement time stays (spec D state table). */
  async acknowledge(user: EndUserPrincipal, id: string): Promise<AnomalyView> {
    const notFound = () => new DomainError(COMMON_ERRORS.not_found, 'No such anomaly');
    if (!isUuid(id)) throw notFound();
    const row = await this.anomalies.acknowledge(user.workspaceId, user.userId, id);
    if (!row) throw notFound();
    return toAnomalyView(row);
  }
}
