import { Injectable } from '@nestjs/common';
import type { WorkspaceScope } from '../workspaces/workspace-scoped';
import { AuditExportLine, AuditRepository } from './audit.repository';
import { AuditExportQueryDto, AuditQueryDto } from './dto/audit-query.dto';

/** Reads of the audit log: newest first, keyset pagination on the unique created_at. */
@Injectable()
export class AuditQueryService {
  constructor(private readonly events: AuditRepository) {}

  async list({ workspaceId }: WorkspaceScope, query: AuditQueryDto) {
    const limit = query.limit ?? 50;
    const rows = await this.events.page({ ...query, workspace_id: workspaceId });
    const hasMore = rows.length > limit;
    const results = hasMore ? rows.slice(0, limit) : rows;
    return { results, next_cursor: hasMore ? results[results.length - 1].created_at : null, limit };
  }

  /** Oldest first, in batches, for the NDJSON export. */
  async *export({ workspaceId }: WorkspaceScope, query: AuditExportQueryDto): AsyncGenerator<AuditExportLine> {
    yield* this.events.exportRange({ ...query, workspace_id: workspaceId });
  }
}
