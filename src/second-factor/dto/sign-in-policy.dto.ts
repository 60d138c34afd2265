import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, ValidateIf } from 'class-validator';
import type { PolicyAction } from '../entities/sign-in-policy.entity';

const ACTIONS = ['allow', 'challenge', 'block'] as const;

/** Kinds left out keep their action; null is refused like any other non-action value. */
export class SignInPolicyDto {
  @ApiPropertyOptional({ enum: ACTIONS, example: 'challenge', description: 'A sign-in from a device (browser and OS) the user never used' })
  @ValidateIf((o: SignInPolicyDto) => o.new_device !== undefined)
  @IsIn(ACTIONS)
  new_device?: PolicyAction;

  @ApiPropertyOptional({ enum: ACTIONS, example: 'allow', description: 'A known device from an address it never used' })
  @ValidateIf((o: SignInPolicyDto) => o.new_ip !== undefined)
  @IsIn(ACTIONS)
  new_ip?: PolicyAction;

  @ApiPropertyOptional({
    enum: ACTIONS,
    example: 'challenge',
    description: 'A sign-in from a country none of the user’s geolocated sessions came from (needs GEO_TOKEN)',
  })
  @ValidateIf((o: SignInPolicyDto) => o.new_country !== undefined)
  @IsIn(ACTIONS)
  new_country?: PolicyAction;

  @ApiPropertyOptional({
    enum: ACTIONS,
    example: 'block',
    description: 'A sign-in too far from the user’s last place within 24 h to have travelled (needs GEO_TOKEN)',
  })
  @ValidateIf((o: SignInPolicyDto) => o.impossible_travel !== undefined)
  @IsIn(ACTIONS)
  impossible_travel?: PolicyAction;
}
