import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsObject, IsString, Length, Matches, MaxLength, ValidateIf } from 'class-validator';

/**
 * Optional fields use ValidateIf(value !== undefined) rather than IsOptional, so that an explicit
 * null is refused (400 validation_failed) instead of passing as "absent".
 */
const present = (field: string) => ValidateIf((o: Record<string, unknown>) => o[field] !== undefined);

/** `code`: six digits, checked when `checked` says the code is the proof sent (it is also when no other proof is). */
const ProofCode = <T>(checked: (o: T) => boolean, doc: ApiPropertyOptions) =>
  applyDecorators(Matches(/^[0-9]{6}$/, { message: 'code must be 6 digits' }), IsString(), ValidateIf(checked), ApiPropertyOptional(doc));

/** `recovery_code`: one of the ten single-use codes, instead of a code. */
const ProofRecoveryCode = () =>
  applyDecorators(Length(1, 64), IsString(), present('recovery_code'), ApiPropertyOptional({ example: 'K7QH2-M9XTR' }));

export class TotpCodeDto {
  @ApiProperty({ example: '492039', description: 'The 6-digit code the authenticator app shows now' })
  @IsString()
  @Matches(/^[0-9]{6}$/, { message: 'code must be 6 digits' })
  code: string;
}

/** A current authenticator code or one recovery code: exactly one of the two. */
export class FactorProofDto {
  @ProofCode((o: FactorProofDto) => o.code !== undefined || o.recovery_code === undefined, { example: '492039' })
  code?: string;

  @ProofRecoveryCode()
  recovery_code?: string;
}

export class LoginSecondStepDto {
  @ApiProperty({ description: 'From the answer of POST /e/v1/auth/login/; single use, 5 minutes' })
  @IsString()
  @MaxLength(200)
  mfa_token: string;

  @ProofCode((o: LoginSecondStepDto) => o.code !== undefined || (o.recovery_code === undefined && o.passkey === undefined), {
    example: '492039',
    description: 'A TOTP code (or, under a step-up policy, the mailed code)',
  })
  code?: string;

  @ProofRecoveryCode()
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
