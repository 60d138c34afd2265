import { type ErrorSpec } from '../../api-docs/decorators';
import { CreateSamlSpDto, UpdateSamlSpDto } from './dto/saml-sp.dto';
import { WorkspaceResourceRoutes } from '../../workspaces/workspace-resource-routes';
import { DeveloperApi } from '../../common/auth/developer-api.decorator';
import { SamlSpsService } from './saml-sps.service';
import { SamlServiceProviderSchema } from './saml-sp.view';

const ENTITY_ID_TAKEN: ErrorSpec = [409, 'sp_entity_id_taken', 'Another SP already uses this entity id'];

@DeveloperApi('developer/saml/sps', 'saml')
export class SamlSpsController extends WorkspaceResourceRoutes({
  noun: 'SAML app',
  schema: SamlServiceProviderSchema,
  create: {
    doc: [
      'Register a SAML service provider',
      'Adds an application that signs users in through this identity provider (SP-initiated SSO). Give sp_entity_id and acs_url, or the SP metadata XML to read them from. The entity id is unique across the service.',
    ],
    body: CreateSamlSpDto,
    answer: 'The registered SP',
    errors: [ENTITY_ID_TAKEN],
  },
  list: { doc: ['List SAML service providers', 'The SAML apps of one workspace.'], answer: 'The SPs' },
  get: { doc: ['Show a SAML service provider', 'Visible to members of its workspace only.'], answer: 'The SP' },
  update: {
    verb: 'PUT',
    doc: ['Update a SAML service provider', 'Fields not sent are kept. Set is_active=false to refuse its sign-ins without deleting it.'],
    body: UpdateSamlSpDto,
    answer: 'The updated SP',
    errors: [ENTITY_ID_TAKEN],
  },
  remove: { doc: ['Delete a SAML service provider', 'Its sign-in requests are refused from now on.'] },
}) {
  constructor(protected readonly resources: SamlSpsService) {
    super();
  }
}
