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
}
