import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsBoolean, IsIn, IsInt, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { AUDIT_EVENT_TYPES } from '../../events/audit-catalog';
import { QueryInt } from '../../common/integer-string';
import { Optional } from '../../common/optional';

export const EVENT_TYPE_CHOICES = [...AUDIT_EVENT_TYPES, '*'];

export class CreateWebhookDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
  @ApiProperty({
    description: 'https: URL (http: and local or private addresses in development, or with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)',
  })
  @IsString()
  @MaxLength(2048)
  url: string;
  @ApiProperty({ type: [String], description: 'Audit catalog event types, or "*" for all', example: ['scim_user_create'] })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(100)
  @IsIn(EVENT_TYPE_CHOICES, { each: true })
  event_types: string[];
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(500) description?: string;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(2048) url?: string;
  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(100)
  @IsIn(EVENT_TYPE_CHOICES, { each: true })
  event_types?: string[];
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(500) description?: string;
  @ApiPropertyOptional({ description: 'false pauses deliveries; true re-enables a disabled endpoint' })
  @Optional()
  @IsBoolean()
  is_active?: boolean;
}

export class WebhookWorkspaceQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
}

export class DeliveriesQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @Optional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}
