import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, MaxLength } from 'class-validator';

const normalizeEmail = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

export class VerifyEmailDto {
  @ApiProperty({ example: 'ada@example.com' }) @Transform(normalizeEmail) @IsEmail() @MaxLength(254) email: string;
  /** Any string: a malformed code answers invalid_code (the spec's error), not a validation error. */
  @ApiProperty({ example: '042917', description: '6 digits' }) @IsString() @MaxLength(32) code: string;
}

export class ResendVerificationDto {
  @ApiProperty({ example: 'ada@example.com' }) @Transform(normalizeEmail) @IsEmail() @MaxLength(254) email: string;
}

export class VerificationResponse {
  @ApiProperty() success: boolean;
  @ApiProperty() message: string;
}
