import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsUUID } from 'class-validator';
import { IsIntegerString } from '../../common/integer-string';
import { Optional } from '../../common/optional';
import { DIRECTORY_EVENT_TYPES } from '../../events/domain-events';
import { PageLimit } from '../../common/dto-fields';

/** `types=a,b` or `types=a&types=b`. */
const commaList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value.split(',')
    : Array.isArray(value)
      ? value.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]))
      : value;

export class EventsQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
  @ApiPropertyOptional({ description: 'Return events with a seq above this one (next_after of the previous page); 0 from the start' })
  @Optional()
  @IsIntegerString(0, Number.MAX_SAFE_INTEGER)
  after?: string;
  @PageLimit(1000, 100)
  limit?: number;
  @ApiPropertyOptional({
    description: 'Only these event types (comma-separated, or the parameter repeated)',
    type: 'array',
    items: { type: 'string', enum: [...DIRECTORY_EVENT_TYPES] },
  })
  @Optional()
  @Transform(commaList)
  @IsArray()
  @ArrayMaxSize(DIRECTORY_EVENT_TYPES.length)
  @IsIn(DIRECTORY_EVENT_TYPES, { each: true })
  types?: string[];
}

export class DirectoryQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
}
