import { PageLimit } from '../../common/dto-fields';

export const ANOMALY_LIST_DEFAULT = 50;
export const ANOMALY_LIST_MAX = 200;

export class AnomalyListQueryDto {
  @PageLimit(ANOMALY_LIST_MAX, ANOMALY_LIST_DEFAULT)
  limit?: number;
}
