import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors';
import type { Tx } from '../database/unit-of-work';
import type { WorkspaceScope } from '../workspaces/workspace-scoped';
import type { ViewOf } from '../api-docs/response-schema';
import { SaveEmailTemplateDto } from './dto/email-template.dto';
import type { EmailTemplateSchema } from './email-templates.schemas';
import { EmailTemplatesRepository, SavedTemplate } from './email-templates.repository';
import { isTemplateName, TEMPLATE_CATALOG, TEMPLATE_NAMES, TemplateContent, TemplateName } from './templates/template-catalog';
import { unknownPlaceholders } from './templates/template-renderer';
import { COMMON_ERRORS, notFound } from '../common/common.errors';

type EmailTemplateView = ViewOf<typeof EmailTemplateSchema>;

/** Per-workspace mail templates: the stored copy when a workspace saved one, else the default. */
@Injectable()
export class EmailTemplatesService {
  constructor(private readonly templates: EmailTemplatesRepository) {}

  /** Read on the enqueuing transaction. */
  async effective(tx: Tx, workspaceId: string, name: TemplateName): Promise<TemplateContent> {
    return (await this.templates.find(tx, workspaceId, name)) ?? TEMPLATE_CATALOG[name].defaults;
  }

  async list({ workspaceId }: WorkspaceScope): Promise<EmailTemplateView[]> {
    const rows = await this.templates.list(workspaceId);
    return TEMPLATE_NAMES.map((name) =>
      toView(
        name,
        rows.find((r) => r.name === name),
      ),
    );
  }

  async save({ workspaceId }: WorkspaceScope, name: string, dto: SaveEmailTemplateDto): Promise<EmailTemplateView> {
    if (!isTemplateName(name)) throw notFound('email template');
    assertKnownPlaceholders(name, dto);
    const saved = await this.templates.save(workspaceId, name, { subject: dto.subject, from_name: dto.from_name, body: dto.body });
    return toView(name, saved);
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
    throw new DomainError(COMMON_ERRORS.validation_failed, `Unknown placeholder; allowed: ${allowed.map((p) => `{{${p}}}`).join(', ')}`, {
      details,
    });
  }
}

function toView(name: TemplateName, row?: SavedTemplate): EmailTemplateView {
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
    updated_at: row ? row.updatedAt.toISOString() : null,
  };
}
