import { Doc, Errors, ReturnsText } from '../api-docs/decorators';
import { BAD_QUERY, NOT_A_MEMBER, ReadRoute } from '../api-docs/routes';
import { Get, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { once } from 'node:events';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
import { type WorkspaceScope, WorkspaceInQuery } from '../workspaces/workspace-scoped';
import { AuditQueryService } from './audit-query.service';
import { AuditVerifyService } from './audit-verify.service';
import { AuditCheckpointsQueryDto, AuditExportQueryDto, AuditQueryDto, AuditVerifyQueryDto } from './dto/audit-query.dto';
import { AuditCheckpointPageSchema, AuditPageSchema, AuditPublicKeysSchema, AuditVerifyResultSchema } from './audit.schemas';

const BROKEN_CHAIN = {
  verified: 1234,
  checkpoints: 20,
  first_break: { event_id: '8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13', seq: 57, reason: 'edited_event' },
};

@DeveloperApi('developer/audit', 'audit')
export class AuditController {
  constructor(
    private readonly audit: AuditQueryService,
    private readonly verification: AuditVerifyService,
  ) {}

  /** Recomputes the workspace's hash chain and checks its signed checkpoints (docs/audit.md). */
  @Doc(
    'Verify the audit chain',
    "Recomputes the workspace's hash chain from its events as they are now, over the links sealed between from and to (from the first link when from is not given, so a removed first event is found too), and checks every signed checkpoint in that span. Answers how many links and checkpoints check out and the first break: an edited, missing or back-dated (inserted) event, a checkpoint whose signature does not verify, or one whose head differs from the recomputed chain. A workspace with nothing sealed in the span answers zeros. Members of the workspace only.",
  )
  @ReadRoute(
    'verify',
    AuditVerifyResultSchema,
    { description: 'The result of the check (first_break null: intact)', example: BROKEN_CHAIN },
    BAD_QUERY,
    NOT_A_MEMBER,
  )
  verify(@WorkspaceInQuery() scope: WorkspaceScope, @Query() query: AuditVerifyQueryDto) {
    return this.verification.verify(scope, query);
  }

  @Doc(
    'List signed checkpoints',
    "The workspace's signed chain heads (Ed25519, at most one a minute while its chain moves) signed between from and to, oldest first. Page with `cursor` = next_cursor of the previous page (a seq). Check them offline against GET /developer/audit/keys/ and an export. Members of the workspace only.",
  )
  @ReadRoute('checkpoints', AuditCheckpointPageSchema, 'One page of checkpoints', BAD_QUERY, NOT_A_MEMBER)
  checkpoints(@WorkspaceInQuery() scope: WorkspaceScope, @Query() query: AuditCheckpointsQueryDto) {
    return this.verification.checkpoints(scope, query);
  }

  /** The Ed25519 public keys that sign checkpoints: the active one and those retired by rotation. */
  @Doc(
    'List the checkpoint signing keys',
    'The Ed25519 public keys (PEM) that sign audit checkpoints: the active one, which signs new checkpoints, and those retired by rotation, kept so older checkpoints still verify. The same for every workspace; any signed-in developer may read them. Keep a copy outside the service: a proof is only as good as the key it is checked with.',
  )
  @ReadRoute('keys', AuditPublicKeysSchema, 'The public keys, active first')
  keys() {
    return this.verification.publicKeys();
  }

  @Doc(
    'Read the audit log',
    'Events of one workspace, newest first, filtered by type, severity, actor, target, IP and time. Page with `cursor` = next_cursor of the previous page (stable under concurrent writes). Members of the workspace only.',
  )
  @ReadRoute('', AuditPageSchema, 'One page of events', BAD_QUERY, NOT_A_MEMBER)
  list(@WorkspaceInQuery() scope: WorkspaceScope, @Query() query: AuditQueryDto) {
    return this.audit.list(scope, query);
  }

  @Doc(
    'Export the audit log',
    'Every event of one workspace between from and to, oldest first, streamed as NDJSON (one AuditEvent per line).',
  )
  @ReturnsText(
    200,
    'application/x-ndjson',
    'One JSON AuditEvent per line',
    '{"id":"3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11","event_type":"scim_user_create","severity":"info"}\n',
  )
  @Errors(BAD_QUERY, NOT_A_MEMBER)
  @Get('export')
  async export(@WorkspaceInQuery() scope: WorkspaceScope, @Query() query: AuditExportQueryDto, @Res() res: Response): Promise<void> {
    const events = this.audit.export(scope, query);
    // Pull the first row before committing to a 200, so an error still gets its JSON status.
    let next = await events.next();
    res.status(200).type('application/x-ndjson');
    while (!next.done) {
      if (!res.write(`${JSON.stringify(next.value)}\n`)) await once(res, 'drain');
      next = await events.next();
    }
    res.end();
  }
}
