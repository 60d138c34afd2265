import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { Optional } from '../../common/optional';

export class CreateSsfReceiverDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id!: string;
  @ApiProperty({ example: 'Slack access revocation', description: 'What the receiver is, for the people of the workspace' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;
  @ApiPropertyOptional({
    enum: ['NONE', 'ALL'],
    default: 'NONE',
    description:
      "NONE: its stream carries only the subjects the receiver adds. ALL: every person of the workspace, except the subjects it removes (SSF 1.0 §7.1 default_subjects); the workspace's members decide, not the receiver.",
  })
  @Optional()
  @IsIn(['NONE', 'ALL'])
  default_subjects?: 'NONE' | 'ALL';
}
