import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsObject, IsString, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../../common/optional';
import { POLL, PUSH } from '../entities/ssf-stream.entity';
import { ACCOUNT_DISABLED, SESSION_REVOKED } from '../ssf-events';
import { OptionalFlag, OptionalNested, OptionalNonEmptyText, OptionalText, OptionalTextList } from '../../common/dto-fields';

export class SsfDeliveryDto {
  @ApiProperty({ enum: [PUSH, POLL], example: PUSH, description: 'urn:ietf:rfc:8935 (push to endpoint_url) or urn:ietf:rfc:8936 (poll)' })
  @IsIn([PUSH, POLL])
  method!: string;
  @OptionalText(2048, {
    example: 'https://receiver.example.com/ssf/events',
    description: 'Push: where SETs are POSTed (https; checked like webhook URLs). Poll: set by the transmitter; a value sent is ignored.',
  })
  endpoint_url?: string;
  @OptionalText(4096, {
    example: 'Bearer 6f1d0c…',
    description: 'Push: the Authorization header every push carries (stored encrypted, never shown again).',
  })
  authorization_header?: string;
}

/**
 * A stream configuration as a receiver sends it (SSF 1.0 §8.1.1). The transmitter-supplied members
 * (iss, aud, events_supported, events_delivered, min_verification_interval, inactivity_timeout) may
 * come back in an update or replace, as the receiver read them; they are accepted and ignored.
 */
export class SsfStreamConfigDto {
  @OptionalNested(SsfDeliveryDto)
  delivery?: SsfDeliveryDto;
  @OptionalTextList(50, 256, { type: [String], example: [ACCOUNT_DISABLED, SESSION_REVOKED] })
  events_requested?: string[];
  @OptionalText(500, { example: 'Revoke Slack access' }) description?: string;
  @OptionalText(2048, { readOnly: true }) iss?: string;
  @ApiPropertyOptional({ readOnly: true, oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] })
  @Optional()
  aud?: string | string[];
  @ApiPropertyOptional({ type: [String], readOnly: true }) @Optional() @IsArray() @ArrayMaxSize(50) events_supported?: string[];
  @ApiPropertyOptional({ type: [String], readOnly: true }) @Optional() @IsArray() @ArrayMaxSize(50) events_delivered?: string[];
  @ApiPropertyOptional({ readOnly: true }) @Optional() @IsInt() @Min(0) @Max(2 ** 31) min_verification_interval?: number;
  @ApiPropertyOptional({ readOnly: true }) @Optional() @IsInt() @Min(0) @Max(2 ** 31) inactivity_timeout?: number;
}

/** An update or replace names its stream (SSF 1.0 §8.1.1.3, §8.1.1.4). */
export class SsfStreamChangeDto extends SsfStreamConfigDto {
  @ApiProperty({ example: 'f67e39a0-0d0f-4b8e-9b3c-2a7b0e7d6c11' }) @IsString() @MaxLength(64) stream_id!: string;
}

export class SsfStreamQueryDto {
  @OptionalText(64, { example: 'f67e39a0-0d0f-4b8e-9b3c-2a7b0e7d6c11' }) stream_id?: string;
}

export class SsfStreamIdQueryDto {
  @ApiProperty({ example: 'f67e39a0-0d0f-4b8e-9b3c-2a7b0e7d6c11' }) @IsString() @MaxLength(64) stream_id!: string;
}

export class SsfStatusDto {
  @ApiProperty({ example: 'f67e39a0-0d0f-4b8e-9b3c-2a7b0e7d6c11' }) @IsString() @MaxLength(64) stream_id!: string;
  @ApiProperty({ enum: ['enabled', 'paused', 'disabled'], example: 'paused' })
  @IsIn(['enabled', 'paused', 'disabled'])
  status!: 'enabled' | 'paused' | 'disabled';
  @OptionalText(500, { example: 'Maintenance window' }) reason?: string;
}

export class SsfSubjectDto {
  @ApiProperty({ example: 'f67e39a0-0d0f-4b8e-9b3c-2a7b0e7d6c11' }) @IsString() @MaxLength(64) stream_id!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { format: 'email', email: 'ada@example.com' },
    description: 'An RFC 9493 subject identifier: format email {email}, iss_sub {iss, sub} or opaque {id}',
  })
  @IsObject()
  subject!: Record<string, unknown>;
  @OptionalFlag({
    example: true,
    description: 'SSF 1.0 §8.1.3.2: whether the receiver verified the subject (recorded nowhere: every subject is treated alike)',
  })
  verified?: boolean;
}

export class SsfVerificationDto {
  @ApiProperty({ example: 'f67e39a0-0d0f-4b8e-9b3c-2a7b0e7d6c11' }) @IsString() @MaxLength(64) stream_id!: string;
  @OptionalNonEmptyText(1024, { example: 'VGhpcyBpcyBhbiBleGFtcGxlIHN0YXRlIHZhbHVlLgo=', description: 'Echoed in the verification SET' })
  state?: string;
}

/** RFC 8936 §2.4: a poll, with acknowledgements and errors for SETs of earlier polls. */
export class SsfPollDto {
  @ApiPropertyOptional({ example: 10, description: 'At most this many SETs (0: only acknowledge); default 100, at most 1000' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(1000)
  maxEvents?: number;
  @OptionalFlag({ example: true, description: 'false (the default): wait up to 10 s for a SET when none is pending' })
  returnImmediately?: boolean;
  @OptionalTextList(1000, 128, {
    type: [String],
    example: ['4d3559ec67504aaba65d40b0363faad8'],
    description: 'jti of SETs received and processed',
  })
  ack?: string[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'object', properties: { err: { type: 'string' }, description: { type: 'string' } } },
    example: { '3d0c3cf797584bd193bd0fb1bd4e7d30': { err: 'jwtAud', description: 'The audience value was incorrect.' } },
    description: 'jti → {err, description} of SETs the receiver could not process (not sent again)',
  })
  @Optional()
  @IsObject()
  setErrs?: Record<string, unknown>;
}
