import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsString, Length, Matches, MaxLength, ValidateIf } from 'class-validator';

/**
 * Optional fields use ValidateIf(value !== undefined) rather than IsOptional, so that an explicit
 * null is refused (400 validation_failed) instead of passing as "absent".
 */
const present = (field: string) => ValidateIf((o: Record<string, unknown>) => o[field] !== undefined);

export class TotpCodeDto {
  @ApiProperty({ example: '492039', description: 'The 6-digit code the authenticator app shows now' })
  @IsString()
  @Matches(/^[0-9]{6}$/, { message: 'code must be 6 digits' })
  code: string;
}

/** A current authenticator code or one recovery code: exactly one of the two. */
export class FactorProofDto {
  @ApiPropertyOptional({ example: '492039' })
  @ValidateIf((o: FactorProofDto) => o.code !== undefined || o.recovery_code === undefined)
  @IsString()
  @Matches(/^[0-9]{6}$/, { message: 'code must be 6 digits' })
  code?: string;

  @ApiPropertyOptional({ example: 'K7QH2-M9XTR' })
  @present('recovery_code')
  @IsString()
  @Length(1, 64)
  recovery_code?: string;
}

export class LoginSecondStepDto {
  @ApiProperty({ description: 'From the answer of POST /e/v1/auth/login/; single use, 5 minutes' })
  @IsString()
  @MaxLength(200)
  mfa_token: string;

  @ApiPropertyOptional({ example: '492039', description: 'A TOTP code (or, under a step-up policy, the mailed code)' })
  @ValidateIf((o: LoginSecondStepDto) => o.code !== undefined || (o.recovery_code === undefined && o.passkey === undefined))
  @IsString()
  @Matches(/^[0-9]{6}$/, { message: 'code must be 6 digits' })
  code?: string;

  @ApiPropertyOptional({ example: 'K7QH2-M9XTR' })
  @present('recovery_code')
  @IsString()
  @Length(1, 64)
  recovery_code?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'The AuthenticationResponseJSON of `startAuthentication` (@simplewebauthn/browser), for options from POST /e/v1/auth/login/mfa/passkey/options/',
    example: {
      id: 'AVx9dK1m3Qw7Lr2ZbT4nUw',
      rawId: 'AVx9dK1m3Qw7Lr2ZbT4nUw',
      type: 'public-key',
      response: {
        clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0Ii…',
        authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ',
        signature: 'MEUCIQ…',
      },
      clientExtensionResults: {},
    },
  })
  @present('passkey')
  @IsObject()
  passkey?: Record<string, unknown>;
}
