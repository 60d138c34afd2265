import { Body } from '@nestjs/common';
import { Doc, type ErrorSpec } from '../api-docs/decorators';
import { ReadRoute, ReplaceRoute } from '../api-docs/routes';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { SignInPolicyDto } from './dto/sign-in-policy.dto';
import { type WorkspaceScope, WorkspaceScoped } from '../workspaces/workspace-scoped';
import { SignInPolicyService } from './sign-in-policy.service';
import { SignInPolicySchema } from './mfa.schemas';

const NO_WORKSPACE: ErrorSpec = [404, 'not_found', 'No such workspace among the caller’s'];
const EXAMPLE = {
  workspace_id: '3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11',
  new_device: 'challenge',
  new_ip: 'allow',
  new_country: 'challenge',
  impossible_travel: 'block',
  updated_at: '2026-11-24T12:00:00.000Z',
};

/** Step-up on risk: what a sign-in that the detectors would flag does (docs/anomalies.md, "Policies"). */
@DeveloperApi('e/v1/developer/workspaces/:id/sign-in-policy', 'workspaces')
export class SignInPolicyController {
  constructor(private readonly policies: SignInPolicyService) {}

  @Doc(
    "Read the workspace's sign-in policy",
    'The action per anomaly kind (`new_device`, `new_ip`, `new_country`, `impossible_travel`), judged before a session exists: `allow` (default: sign in, alert afterwards), `challenge` (no tokens until a second factor, or a mailed code for users without one) or `block` (403 `sign_in_blocked`, every session of the user ended, the user mailed). The geo kinds need geolocation (GEO_TOKEN); a sign-in whose address cannot be located is not judged by them. Members only.',
  )
  @ReadRoute('', SignInPolicySchema, { description: 'The policy', example: EXAMPLE }, NO_WORKSPACE)
  get(@WorkspaceScoped('param', 'id') scope: WorkspaceScope) {
    return this.policies.get(scope);
  }

  @Doc(
    "Set the workspace's sign-in policy",
    'Sets the action of one or more kinds; kinds left out keep theirs. Audited as workspace_update. Members only.',
  )
  @ReplaceRoute('', SignInPolicySchema, { description: 'The policy now in force', example: EXAMPLE }, NO_WORKSPACE)
  set(@WorkspaceScoped('param', 'id') scope: WorkspaceScope, @Body() dto: SignInPolicyDto, @ReqMeta() meta: RequestMeta) {
    return this.policies.set(scope, dto, meta);
  }
}
