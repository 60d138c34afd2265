import { Body, Param, Query } from '@nestjs/common';
import { Doc, type ErrorSpec } from '../api-docs/decorators';
import { CreateRoute, NOT_A_MEMBER, ReadRoute } from '../api-docs/routes';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { DirectoryUserPageSchema, DirectoryUserSchema } from '../end-users/directory/directory.schemas';
import { DirectoryGroupPageSchema } from '../scim/groups/group-directory.schemas';
import { type WorkspaceScope, WorkspaceInBody, WorkspaceInQuery } from '../workspaces/workspace-scoped';
import { DirectoryPersonSchema } from './directory.schemas';
import { DirectoryService } from './directory.service';
import { AddDirectoryUserDto, DirectoryListQueryDto, DirectoryUserQueryDto } from './dto/directory.dto';

const BAD_FIELD: ErrorSpec = [400, 'validation_failed', 'A field breaks its rule (details names it)'];
const EMAIL_TAKEN: ErrorSpec = [409, 'email_taken', 'The directory already has a person with this email'];
const BAD_PAGE: ErrorSpec = [400, 'validation_failed', 'A query parameter breaks its rule, or the cursor is not one this API gave'];

@DeveloperApi('developer/directory', 'directory')
export class DirectoryController {
  constructor(private readonly directory: DirectoryService) {}

  @Doc(
    'List the people of a workspace',
    'Every end user of the workspace: its directory (provisioned by SCIM or added by a developer, application null) and the accounts of its applications, ordered by email. `search` matches part of an email or a name, case-insensitively. Page with `cursor` = next_cursor of the previous page. Members of the workspace only.',
  )
  @ReadRoute('users', DirectoryUserPageSchema, 'One page of people', BAD_PAGE, NOT_A_MEMBER)
  users(@WorkspaceInQuery() scope: WorkspaceScope, @Query() query: DirectoryListQueryDto) {
    return this.directory.users(scope, query);
  }

  @Doc(
    'Add a person to the directory',
    'For developers who do not use SCIM: a directory account with an email and a name, without a password. The person sets one on the hosted login ("Set or reset your password", a code mailed to the address), which also verifies the address; then SAML sign-ins to the workspace\'s service providers work. Audited as user_create.',
  )
  @CreateRoute('users', DirectoryUserSchema, 'The new person', BAD_FIELD, NOT_A_MEMBER, EMAIL_TAKEN)
  addUser(@WorkspaceInBody() scope: WorkspaceScope, @Body() dto: AddDirectoryUserDto, @ReqMeta() meta: RequestMeta) {
    return this.directory.addUser(scope, dto, meta);
  }

  @Doc(
    'Show a person',
    'One end user of the workspace with their groups, live sessions and second factors (never a secret). Their audit trail: GET /developer/audit/?subject_id={id}. Members of the workspace only.',
  )
  @ReadRoute('users/:id', DirectoryPersonSchema, 'The person', [
    404,
    'not_found',
    'No such user in this workspace, or the caller is not a member of it',
  ])
  person(@WorkspaceInQuery() scope: WorkspaceScope, @Query() _query: DirectoryUserQueryDto, @Param('id') id: string) {
    return this.directory.person(scope, id);
  }

  @Doc(
    'List the groups of a workspace',
    'The SCIM groups of the workspace by name, each with its member count and first 100 members. `search` matches part of the name. Page with `cursor` = next_cursor of the previous page. Members of the workspace only.',
  )
  @ReadRoute('groups', DirectoryGroupPageSchema, 'One page of groups', BAD_PAGE, NOT_A_MEMBER)
  groups(@WorkspaceInQuery() scope: WorkspaceScope, @Query() query: DirectoryListQueryDto) {
    return this.directory.groupsPage(scope, query);
  }
}
