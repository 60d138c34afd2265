import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, IsUUID, Length, MaxLength, ValidateIf } from 'class-validator';
import { NotNull, Optional } from '../../common/optional';

const normalizeEmail = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Same bounds as developer passwords: 8 to 256 characters. */
const Password = () => Length(8, 256);

export class RegisterDto {
  @ApiProperty() @IsString() @Length(1, 200) client_id: string;
  @ApiProperty({ example: 'ada@example.com' }) @Transform(normalizeEmail) @IsEmail() @MaxLength(254) email: string;
  @ApiProperty({ minLength: 8, maxLength: 256 }) @IsString() @Password() password: string;
  @ApiPropertyOptional() @Optional() @Transform(trim) @IsString() @MaxLength(30) first_name?: string;
  @ApiPropertyOptional() @Optional() @Transform(trim) @IsString() @MaxLength(30) last_name?: string;
}

export class LoginDto {
  @ApiProperty() @IsString() @Length(1, 200) client_id: string;
  @ApiProperty() @Transform(normalizeEmail) @IsString() @Length(1, 254) email: string;
  /** No length rule on sign-in: a wrong password of any length is just wrong (same answer). */
  @ApiProperty() @IsString() @MaxLength(1024) password: string;
}

export class RefreshDto {
  @ApiProperty() @IsString() @MaxLength(200) refresh_token: string;
}

/** `client_id` of the account to reset, required unless `workspace_id` names a directory account instead. */
const ResetClientId = () =>
  applyDecorators(
    Length(1, 200),
    IsString(),
    NotNull(),
    ValidateIf((o: { workspace_id?: string; client_id?: string }) => o.workspace_id === undefined || o.client_id !== undefined),
    ApiPropertyOptional(),
  );

/**
 * The account to reset: `client_id` names an application's account; `workspace_id` (instead) names the
 * workspace's directory account (provisioned by SCIM, no OAuth client), which starts without a password.
 */
export class PasswordResetRequestDto {
  @ResetClientId() client_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @Optional() @IsUUID() workspace_id?: string;
  @ApiProperty() @Transform(normalizeEmail) @IsEmail() @MaxLength(254) email: string;
}

/** The account as in PasswordResetRequestDto, the emailed code and the new password. */
export class PasswordResetConfirmDto {
  @ResetClientId() client_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @Optional() @IsUUID() workspace_id?: string;
  @ApiProperty() @Transform(normalizeEmail) @IsEmail() @MaxLength(254) email: string;
  @ApiProperty({ example: '042917' }) @IsString() @MaxLength(32) code: string;
  @ApiProperty({ minLength: 8, maxLength: 256 }) @IsString() @Password() new_password: string;
}

export class PasswordChangeDto {
  @ApiProperty() @IsString() @MaxLength(1024) current_password: string;
  @ApiProperty({ minLength: 8, maxLength: 256 }) @IsString() @Password() new_password: string;
}

export class EndUserResponse {
  @ApiProperty() id: string;
  @ApiProperty() email: string;
  @ApiProperty() email_verified: boolean;
  @ApiProperty() first_name: string;
  @ApiProperty() last_name: string;
  @ApiProperty() created_at: string;
}

export class TokenResponse {
  @ApiProperty({ description: 'Opaque bearer token for the end-user routes: send it as it is, never parse it' }) access_token: string;
  @ApiProperty({ description: 'Opaque, single use: trade it at POST /e/v1/auth/token/refresh/ for a new pair' }) refresh_token: string;
  @ApiProperty({ example: 'Bearer' }) token_type: string;
  @ApiProperty({ example: 900, description: 'Seconds until the access token expires' }) expires_in: number;
  @ApiProperty() session_id: string;
}
