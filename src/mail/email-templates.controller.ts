import { Doc } from '../api-docs/decorators';
import { ReplaceRoute } from '../api-docs/routes';
import { Body, Param } from '@nestjs/common';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
import { type WorkspaceScope, WorkspaceInBody } from '../workspaces/workspace-scoped';
import { SaveEmailTemplateDto } from './dto/email-template.dto';
import { EmailTemplatesService } from './email-templates.service';
import { EmailTemplateSchema } from './email-templates.schemas';
import { WorkspaceResourceRoutes } from '../workspaces/workspace-resource-routes';

@DeveloperApi('developer/email-templates', 'email templates')
export class EmailTemplatesController extends WorkspaceResourceRoutes({
  noun: 'email template',
  schema: EmailTemplateSchema,
  list: {
    doc: [
      'List email templates',
      'The mails the service sends for a workspace (registration code, password reset, new-device alert), with the built-in text where nothing was saved, and the placeholders each accepts.',
    ],
    answer: 'The templates',
  },
}) {
  constructor(protected readonly resources: EmailTemplatesService) {
    super();
  }

  @Doc(
    'Customise an email template',
    'Saves subject, sender name and body for one template of a workspace. Only the placeholders listed for the template may be used ({{code}}, {{first_name}}, …).',
  )
  @ReplaceRoute(
    ':name',
    EmailTemplateSchema,
    'The saved template',
    [400, 'validation_failed', 'Unknown placeholder, or a field breaks its rule'],
    [404, 'not_found', 'No template of this name, or no such workspace for the caller'],
  )
  save(@WorkspaceInBody() scope: WorkspaceScope, @Param('name') name: string, @Body() dto: SaveEmailTemplateDto) {
    return this.resources.save(scope, name, dto);
  }
}
