import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { QueryInt } from '../../common/integer-string';
import { Optional } from '../../common/optional';

export const ANOMALY_LIST_DEFAULT = 50;
export const ANOMALY_LIST_MAX = 200;

export class AnomalyListQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: ANOMALY_LIST_MAX, default: ANOMALY_LIST_DEFAULT })
  @Optional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(ANOMALY_LIST_MAX)
  limit?: number;
}
