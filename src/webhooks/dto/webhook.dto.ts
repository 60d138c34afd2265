import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsIn, IsString, IsUUID, MaxLength } from 'class-validator';
import { AUDIT_EVENT_TYPES } from '../../events/audit-catalog';
import { DIRECTORY_EVENT_TYPES } from '../../events/domain-events';
import { Optional } from '../../common/optional';
import { OptionalFlag, OptionalText, PageLimit } from '../../common/dto-fields';

/** Audit catalog types, directory event types (decision 0540), and '*': every audit type (not the directory ones). */
export const EVENT_TYPE_CHOICES = [...AUDIT_EVENT_TYPES, ...DIRECTORY_EVENT_TYPES, '*'];

const EVENT_TYPES_DESCRIPTION =
  'Audit catalog event types, "*" for every audit type, and directory event types (directory.user.created…), ' +
  'each delivered as the feed shows the event; "*" does not include the directory types.';

export class CreateWebhookDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
  @ApiProperty({
    description: 'https: URL (http: and local or private addresses in development, or with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)',
  })
  @IsString()
  @MaxLength(2048)
  url: string;
  @ApiProperty({ type: [String], description: EVENT_TYPES_DESCRIPTION, example: ['scim_user_create', 'directory.user.deactivated'] })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(100)
  @IsIn(EVENT_TYPE_CHOICES, { each: true })
  event_types: string[];
  @OptionalText(500) description?: string;
}

export class UpdateWebhookDto {
  @OptionalText(2048) url?: string;
  @ApiPropertyOptional({ type: [String], description: EVENT_TYPES_DESCRIPTION })
  @Optional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(100)
  @IsIn(EVENT_TYPE_CHOICES, { each: true })
  event_types?: string[];
  @OptionalText(500) description?: string;
  @OptionalFlag({ description: 'false pauses deliveries; true re-enables a disabled endpoint' })
  is_active?: boolean;
}

export class DeliveriesQueryDto {
  @PageLimit()
  limit?: number;
}
