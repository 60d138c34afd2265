import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsUUID } from 'class-validator';
import { ACTOR_TYPES, AUDIT_SEVERITIES } from '../../events/audit-catalog';
import { IsIntegerString } from '../../common/integer-string';
import { Optional } from '../../common/optional';
import { OptionalText, PageLimit, OptionalInstant } from '../../common/dto-fields';

export class AuditQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
  @OptionalText(100) event_type?: string;
  @ApiPropertyOptional({ enum: AUDIT_SEVERITIES }) @Optional() @IsIn(AUDIT_SEVERITIES) severity?: string;
  @OptionalText(255) actor_id?: string;
  @ApiPropertyOptional({ enum: ACTOR_TYPES }) @Optional() @IsIn(ACTOR_TYPES) actor_type?: string;
  @OptionalText(255) target_id?: string;
  @OptionalText(255, {
    description: "Events whose actor or target is this id: a person's trail (what they did and what was done to them)",
  })
  subject_id?: string;
  @OptionalText(100) ip_address?: string;
  @OptionalInstant({ description: 'Lower bound on created_at (ISO 8601, inclusive)' }) from?: string;
  @OptionalInstant({ description: 'Upper bound on created_at (ISO 8601, inclusive)' }) to?: string;
  @PageLimit()
  limit?: number;
  @OptionalInstant({ description: 'next_cursor of the previous page' }) cursor?: string;
}

export class AuditExportQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
  @OptionalInstant() from?: string;
  @OptionalInstant() to?: string;
}

export class AuditVerifyQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
  @OptionalInstant({ description: 'Check the links sealed at or after this instant (ISO 8601); default: from the first link' })
  from?: string;
  @OptionalInstant({ description: 'Check the links sealed at or before this instant (ISO 8601); default: to the head' }) to?: string;
}

export class AuditCheckpointsQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
  @OptionalInstant({ description: 'Signed at or after (ISO 8601)' }) from?: string;
  @OptionalInstant({ description: 'Signed at or before (ISO 8601)' }) to?: string;
  @PageLimit(1000, 1000)
  limit?: number;
  @ApiPropertyOptional({ description: 'next_cursor of the previous page (a seq)', type: 'integer', format: 'int64' })
  @Optional()
  @IsIntegerString(0, Number.MAX_SAFE_INTEGER)
  cursor?: string;
}
