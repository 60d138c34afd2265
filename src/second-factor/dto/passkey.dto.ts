import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsString, MaxLength, ValidateIf } from 'class-validator';

const CREDENTIAL_EXAMPLE = {
  id: 'AVx9dK1m3Qw7Lr2ZbT4nUw',
  rawId: 'AVx9dK1m3Qw7Lr2ZbT4nUw',
  type: 'public-key',
  response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIi…', attestationObject: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVi…' },
  clientExtensionResults: {},
};

export class RegisterPasskeyDto {
  @ApiPropertyOptional({ example: 'MacBook Touch ID', maxLength: 64, description: 'Shown in the list; a dated default when absent' })
  @ValidateIf((o: RegisterPasskeyDto) => o.name !== undefined)
  @IsString()
  @MaxLength(64)
  name?: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: CREDENTIAL_EXAMPLE,
    description: 'The RegistrationResponseJSON that `startRegistration` of @simplewebauthn/browser returns (WebAuthn `toJSON()`)',
  })
  @IsObject()
  credential: Record<string, unknown>;
}

export class RenamePasskeyDto {
  @ApiProperty({ example: 'Work YubiKey', maxLength: 64 })
  @IsString()
  @MaxLength(64)
  name: string;
}

export class MfaTokenDto {
  @ApiProperty({ description: 'From the answer of POST /e/v1/auth/login/' })
  @IsString()
  @MaxLength(200)
  mfa_token: string;
}
