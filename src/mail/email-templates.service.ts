import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DeveloperPrincipal } from '../common/auth/principal';
import { DomainError, notFound } from '../common/errors';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { EmailTemplateView, SaveEmailTemplateDto } from './dto/email-template.dto';
import { isTemplateName, TEMPLATE_CATALOG, TEMPLATE_NAMES, TemplateContent, TemplateName } from './templates/template-catalog';
import { unknownPlaceholders } from './templates/template-renderer';

interface TemplateRow {
  name: string;
  subject: string;
  from_name: string;
  body: string;
  updated_at: Date;
}

/** Per-workspace mail templates: the stored copy when a workspace saved one, else the default. */
@Injectable()
export class EmailTemplatesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly workspaces: WorkspacesService,
  ) {}

  async effective(manager: EntityManager, workspaceId: string, name: TemplateName): Promise<TemplateContent> {
    const rows = (await manager.query(`SELECT subject, from_name, body FROM email_templates WHERE workspace_id = $1 AND name = $2`, [
      workspaceId,
      name,
    ])) as TemplateContent[];
    return rows[0] ?? TEMPLATE_CATALOG[name].defaults;
  }

  async list(developer: DeveloperPrincipal, workspaceId: string): Promise<EmailTemplateView[]> {
    await this.workspaces.assertMember(developer.developerId, workspaceId);
    const rows = (await this.dataSource.query(
      `SELECT name, subject, from_name, body, updated_at FROM email_templates WHERE workspace_id = $1`,
      [workspaceId],
    )) as TemplateRow[];
    return TEMPLATE_NAMES.map((name) =>
      toView(
        name,
        rows.find((r) => r.name === name),
      ),
    );
  }

  async save(developer: DeveloperPrincipal, name: string, dto: SaveEmailTemplateDto): Promise<EmailTemplateView> {
    await this.workspaces.assertMember(developer.developerId, dto.workspace_id);
    if (!isTemplateName(name)) throw notFound('email template');
    assertKnownPlaceholders(name, dto);
    const rows = (await this.dataSource.query(
      `INSERT INTO email_templates (workspace_id, name, subject, from_name, body)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (workspace_id, name)
       DO UPDATE SET subject = EXCLUDED.subject, from_name = EXCLUDED.from_name, body = EXCLUDED.body, updated_at = now()
       RETURNING name, subject, from_name, body, updated_at`,
      [dto.workspace_id, name, dto.subject, dto.from_name, dto.body],
    )) as TemplateRow[];
    return toView(name, rows[0]);
  }
}

/** An unknown placeholder would silently render as nothing in every mail: refuse it at save time. */
function assertKnownPlaceholders(name: TemplateName, dto: SaveEmailTemplateDto): void {
  const allowed = TEMPLATE_CATALOG[name].placeholders;
  const details: Record<string, string[]> = {};
  for (const field of ['subject', 'from_name', 'body'] as const) {
    const unknown = unknownPlaceholders(dto[field], allowed);
    if (unknown.length) details[field] = unknown.map((p) => `unknown placeholder ${p}`);
  }
  if (Object.keys(details).length) {
    throw new DomainError('validation_failed', `Unknown placeholder; allowed: ${allowed.map((p) => `{{${p}}}`).join(', ')}`, {
      details,
    });
  }
}

function toView(name: TemplateName, row?: TemplateRow): EmailTemplateView {
  const def = TEMPLATE_CATALOG[name];
  const content = row ?? def.defaults;
  return {
    name,
    display_name: def.display_name,
    subject: content.subject,
    from_name: content.from_name,
    body: content.body,
    placeholders: [...def.placeholders],
    is_default: !row,
    updated_at: row ? new Date(row.updated_at).toISOString() : null,
  };
}
