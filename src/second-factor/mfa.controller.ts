import { Body, Delete } from '@nestjs/common';
import { Doc, NoContentRoute } from '../api-docs/decorators';
import { ActionRoute, CreateRoute, ReadRoute } from '../api-docs/routes';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import type { EndUserPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { FactorProofDto, TotpCodeDto } from './dto/mfa.dto';
import { MfaService } from './mfa.service';
import { MfaStatusSchema, RecoveryCodesSchema, TotpEnrolmentSchema } from './mfa.schemas';
import { EndUserApi } from '../common/controller-kinds';

/** The signed-in end user's second factors (docs/end-users.md, "Second factor"). */
@EndUserApi('e/v1/auth/mfa', 'end-user second factor')
export class MfaController {
  constructor(private readonly mfa: MfaService) {}

  @Doc('List my second factors', 'Whether an authenticator app is set up, the passkeys, and how many recovery codes are left.')
  @ReadRoute('', MfaStatusSchema, { description: 'The factors', example: { totp: true, passkeys: [], recovery_codes_left: 10 } })
  status(@CurrentPrincipal() principal: EndUserPrincipal) {
    return this.mfa.status(principal);
  }

  @Doc(
    'Start setting up an authenticator app',
    'Draws a new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s) and returns it with its `otpauth://` URI for a QR code. It stays pending until confirmed with a first code; a second call replaces a pending secret. The secret is stored encrypted.',
  )
  @CreateRoute('totp', TotpEnrolmentSchema, 'The pending secret', [
    409,
    'totp_already_enabled',
    'An authenticator app is already set up; remove it first',
  ])
  startTotp(@CurrentPrincipal() principal: EndUserPrincipal) {
    return this.mfa.startTotp(principal);
  }

  @Doc(
    'Confirm the authenticator app',
    'Turns the pending secret on with a current code. On the first factor of the account the answer carries ten single-use recovery codes, shown this once; otherwise `recovery_codes` is null. Audited as mfa_enroll.',
  )
  @ActionRoute(
    'totp/confirm',
    200,
    RecoveryCodesSchema,
    'Enabled',
    [400, 'invalid_code', 'The code is not the current one'],
    [409, 'no_pending_totp', 'No set-up was started'],
  )
  confirmTotp(@CurrentPrincipal() principal: EndUserPrincipal, @Body() dto: TotpCodeDto, @ReqMeta() meta: RequestMeta) {
    return this.mfa.confirmTotp(principal, dto.code, meta);
  }

  @Doc(
    'Remove the authenticator app',
    'Needs a current code (`code`) or one recovery code (`recovery_code`). When no factor is left the recovery codes are voided too. Audited as mfa_remove.',
  )
  @NoContentRoute(
    Delete('totp'),
    'Removed',
    [400, 'invalid_code', 'The code or recovery code is not correct'],
    [404, 'not_found', 'No authenticator app is set up'],
  )
  async disableTotp(
    @CurrentPrincipal() principal: EndUserPrincipal,
    @Body() dto: FactorProofDto,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.mfa.disableTotp(principal, dto, meta);
  }

  @Doc(
    'Issue new recovery codes',
    'Ten new single-use codes, shown this once; every code of the previous set stops working. Audited as recovery_codes_regenerate.',
  )
  @ActionRoute('recovery-codes', 200, RecoveryCodesSchema, 'The new set', [409, 'no_second_factor', 'The account has no second factor'])
  regenerate(@CurrentPrincipal() principal: EndUserPrincipal, @ReqMeta() meta: RequestMeta) {
    return this.mfa.regenerateRecoveryCodes(principal, meta);
  }
}
