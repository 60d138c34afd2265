import { ApiProperty } from '@nestjs/swagger';
import { IsString, IsUUID, Length } from 'class-validator';

export class SaveEmailTemplateDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
  @ApiProperty({ example: '{{code}} is your verification code' }) @IsString() @Length(1, 255) subject: string;
  @ApiProperty({ example: 'Acme' }) @IsString() @Length(1, 100) from_name: string;
  @ApiProperty({ description: 'HTML or plain text with {{placeholders}}' }) @IsString() @Length(1, 100_000) body: string;
}

/** The development mailbox's query: whose mails. */
export class DevMailboxQuery {
  @IsUUID() workspace_id: string;
}
