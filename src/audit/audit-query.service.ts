import { Injectable } from '@nestjs/common';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { AuditExportLine, AuditRepository } from './audit.repository';
import { AuditExportQueryDto, AuditQueryDto } from './dto/audit-query.dto';

/** Reads of the audit log: newest first, keyset pagination on the unique created_at. */
@Injectable()
export class AuditQueryService {
  constructor(
    private readonly events: AuditRepository,
    private readonly workspaces: WorkspacesService,
  ) {}

  async list(developerId: string, query: AuditQueryDto) {
    const limit = query.limit ?? 50;
    const rows = await this.events.page(developerId, query);
    if (rows.length === 0) await this.workspaces.assertMember(developerId, query.workspace_id);
    const hasMore = rows.length > limit;
    const results = hasMore ? rows.slice(0, limit) : rows;
    return { results, next_cursor: hasMore ? results[results.length - 1].created_at : null, limit };
  }

  /** Oldest first, in batches, for the NDJSON export. */
  async *export(developerId: string, query: AuditExportQueryDto): AsyncGenerator<AuditExportLine> {
    await this.workspaces.assertMember(developerId, query.workspace_id);
    yield* this.events.exportRange(query);
  }
}
