import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { entityColumns } from '../database/row-shape';
import { one, statement } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { EmailTemplate } from './entities/email-template.entity';
import type { TemplateContent } from './templates/template-catalog';

/** A workspace's saved copy of a template. */
export interface SavedTemplate extends TemplateContent {
  name: string;
  updatedAt: Date;
}

const fromEntity = (t: Pick<EmailTemplate, 'name' | 'subject' | 'fromName' | 'body' | 'updatedAt'>): SavedTemplate => ({
  name: t.name,
  subject: t.subject,
  from_name: t.fromName,
  body: t.body,
  updatedAt: t.updatedAt,
});

// One row per workspace and name: saving again overwrites it (and stamps updated_at).
const SAVE = statement(
  'email-templates.save',
  `INSERT INTO email_templates (workspace_id, name, subject, from_name, body)
  VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT (workspace_id, name)
  DO UPDATE SET subject = EXCLUDED.subject, from_name = EXCLUDED.from_name, body = EXCLUDED.body, updated_at = now()
  RETURNING name, subject, from_name, body, updated_at`,
  entityColumns(EmailTemplate, ['name', 'subject', 'fromName', 'body', 'updatedAt']),
);

/** email_templates: the workspaces' own copies of the catalog templates. */
@Injectable()
export class EmailTemplatesRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(EmailTemplate) private readonly templates: Repository<EmailTemplate>,
  ) {}

  /** The saved copy, read on the caller's transaction (the mail is rendered there). */
  async find(tx: Tx, workspaceId: string, name: string): Promise<TemplateContent | null> {
    const row = await tx
      .getRepository(EmailTemplate)
      .findOne({ select: { subject: true, fromName: true, body: true }, where: { workspaceId, name } });
    return row ? { subject: row.subject, from_name: row.fromName, body: row.body } : null;
  }

  async list(workspaceId: string): Promise<SavedTemplate[]> {
    const rows = await this.templates.find({
      select: { name: true, subject: true, fromName: true, body: true, updatedAt: true },
      where: { workspaceId },
    });
    return rows.map(fromEntity);
  }

  async save(workspaceId: string, name: string, content: TemplateContent): Promise<SavedTemplate> {
    return fromEntity(await one(this.dataSource, SAVE, [workspaceId, name, content.subject, content.from_name, content.body]));
  }
}
