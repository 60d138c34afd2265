import { Body, Delete, Param } from '@nestjs/common';
import { Doc, NoContentRoute, type ErrorSpec } from '../../api-docs/decorators';
import { ActionRoute, CreateRoute, ListRoute, UpdateRoute } from '../../api-docs/routes';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import type { EndUserPrincipal } from '../../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { RegisterPasskeyDto, RenamePasskeyDto } from '../dto/passkey.dto';
import { PasskeysService } from './passkeys.service';
import { PasskeyCreationOptionsSchema, PasskeyRegisteredSchema, PasskeySchema } from '../mfa.schemas';
import { EndUserApi } from '../../common/controller-kinds';

const NO_PASSKEY: ErrorSpec = [404, 'not_found', 'No passkey with this id on the account'];
const TOO_MANY: ErrorSpec = [409, 'too_many_passkeys', 'The account already holds 20 passkeys'];
const PASSKEY_EXAMPLE = {
  id: '5b1c7e2a-9d4f-4a8b-b6e3-2f0d9c8a7b61',
  name: 'MacBook Touch ID',
  created_at: '2026-11-26T10:15:00.000Z',
  last_used_at: null,
};

/** The signed-in end user's passkeys (docs/end-users.md, "Passkeys"). */
@EndUserApi('e/v1/auth/mfa/passkeys', 'end-user second factor')
export class PasskeysController {
  constructor(private readonly passkeys: PasskeysService) {}

  @Doc('List my passkeys', 'The passkeys registered to the account, oldest first.')
  @ListRoute('', PasskeySchema, { description: 'The passkeys', example: { results: [PASSKEY_EXAMPLE] } })
  async list(@CurrentPrincipal() principal: EndUserPrincipal) {
    return { results: await this.passkeys.list(principal) };
  }

  @Doc(
    'Start registering a passkey',
    'WebAuthn creation options for this account (relying party id and origin from PUBLIC_BASE_URL; discoverable credential; the passkeys already registered are excluded). The challenge works once and for 5 minutes. Hand the options to `startRegistration` of @simplewebauthn/browser, then POST the result to /e/v1/auth/mfa/passkeys/.',
  )
  @ActionRoute('options', 200, PasskeyCreationOptionsSchema, 'The creation options', TOO_MANY)
  options(@CurrentPrincipal() principal: EndUserPrincipal) {
    return this.passkeys.registrationOptions(principal);
  }

  @Doc(
    'Register a passkey',
    'Verifies the credential against the challenge of POST …/passkeys/options/ (spent by this call, right or wrong) and stores its public key. On the first factor of the account the answer carries ten single-use recovery codes, shown this once. Audited as mfa_enroll.',
  )
  @CreateRoute(
    '',
    PasskeyRegisteredSchema,
    { description: 'Registered', example: { passkey: PASSKEY_EXAMPLE, recovery_codes: ['K7QH2-M9XTR', 'B4WPN-2ZKQC', '…8 more'] } },
    [400, 'invalid_passkey_response', 'The credential is not WebAuthn registration JSON'],
    [401, 'passkey_not_accepted', 'Unknown, expired or used challenge, wrong origin or relying party, or a bad attestation'],
    [409, 'passkey_exists', 'This credential is already registered'],
    TOO_MANY,
  )
  register(@CurrentPrincipal() principal: EndUserPrincipal, @Body() dto: RegisterPasskeyDto, @ReqMeta() meta: RequestMeta) {
    return this.passkeys.register(principal, dto, meta);
  }

  @Doc('Rename a passkey', 'Changes the name shown in the list.')
  @UpdateRoute(':id', PasskeySchema, { description: 'Renamed', example: { ...PASSKEY_EXAMPLE, name: 'Work YubiKey' } }, NO_PASSKEY)
  rename(@CurrentPrincipal() principal: EndUserPrincipal, @Param('id') id: string, @Body() dto: RenamePasskeyDto) {
    return this.passkeys.rename(principal, id, dto.name);
  }

  @Doc(
    'Remove a passkey',
    'The passkey stops working at once. When no factor is left the recovery codes are voided too. Audited as mfa_remove.',
  )
  @NoContentRoute(Delete(':id'), 'Removed', NO_PASSKEY)
  async remove(@CurrentPrincipal() principal: EndUserPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta): Promise<void> {
    await this.passkeys.remove(principal, id, meta);
  }
}
