import { Controller, Get, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator';
import { type WorkspaceScope, WorkspaceInQuery } from '../workspaces/workspace-scoped';
import { DevMailboxService } from './dev-mailbox.service';
import { DevMailboxQuery } from './dto/email-template.dto';

/**
 * The development mailbox (src/mail/dev-mailbox.service.ts). Not part of the API description: it exists
 * only outside production, when mail is written to files.
 */
@ApiExcludeController()
@Controller('developer/dev-mailbox')
@Auth('developer')
export class DevMailboxController {
  constructor(private readonly mailbox: DevMailboxService) {}

  @Get()
  async list(@WorkspaceInQuery() scope: WorkspaceScope, @Query() _query: DevMailboxQuery) {
    return { results: await this.mailbox.list(scope) };
  }
}
