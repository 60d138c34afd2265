import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, Repository } from 'typeorm';
import type { Tx } from '../database/unit-of-work';
import { EndUser } from './entities/end-user.entity';
import { newAccountRow } from './end-users.repository';

/** A person as the developer's directory shows them: never the password hash, only whether there is one. */
export interface DirectoryAccount {
  id: string;
  workspaceId: string;
  email: string;
  firstName: string;
  lastName: string;
  isActive: boolean;
  emailVerified: boolean;
  hasPassword: boolean;
  /** The application whose account this is; null for the workspace's directory (SCIM or added by a developer). */
  application: { id: string; name: string } | null;
  createdAt: Date;
}

/** Where a page starts: after this (lower(email), id) in the directory's order. */
export interface DirectoryPosition {
  email: string;
  id: string;
}

export interface NewDirectoryAccount {
  email: string;
  firstName: string;
  lastName: string;
  now: Date;
}

const SELECTED = ['id', 'workspaceId', 'email', 'firstName', 'lastName', 'isActive', 'emailVerified', 'passwordHash', 'createdAt'].map(
  (p) => `u.${p}`,
);

/** LIKE's wildcards and its escape character taken literally. */
const literalLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The developer's view of end_users (the directory page of the console and GET /developer/directory/users/):
 * every account of a workspace, with the application it belongs to, in email order. CRUD-shaped reads
 * through TypeORM's QueryBuilder; every method takes the workspace first.
 */
@Injectable()
export class DirectoryAccountsRepository {
  constructor(@InjectRepository(EndUser) private readonly users: Repository<EndUser>) {}

  /** Up to `limit` accounts after `after`, ordered by lower(email) then id; `search` matches email or name, case-insensitively. */
  async page(workspaceId: string, search: string | undefined, after: DirectoryPosition | null, limit: number): Promise<DirectoryAccount[]> {
    const query = this.select().where('u.workspaceId = :workspaceId', { workspaceId });
    if (search) {
      const pattern = `%${literalLike(search.toLowerCase())}%`;
      query.andWhere(
        new Brackets((q) =>
          q
            .where(`lower(u.email) LIKE :pattern ESCAPE '\\'`, { pattern })
            .orWhere(`lower(concat_ws(' ', u.firstName, u.lastName)) LIKE :pattern ESCAPE '\\'`, { pattern }),
        ),
      );
    }
    if (after) query.andWhere('(lower(u.email), u.id) > (:afterEmail, :afterId::uuid)', { afterEmail: after.email, afterId: after.id });
    const rows = await query.orderBy('lower(u.email)').addOrderBy('u.id').limit(limit).getMany();
    return rows.map(toAccount);
  }

  async byId(workspaceId: string, id: string): Promise<DirectoryAccount | undefined> {
    const row = await this.select().where('u.workspaceId = :workspaceId AND u.id = :id', { workspaceId, id }).getOne();
    return row ? toAccount(row) : undefined;
  }

  /** A directory account (no application, no password yet); undefined when the workspace's directory already has this email. */
  async insert(tx: Tx, workspaceId: string, user: NewDirectoryAccount): Promise<DirectoryAccount | undefined> {
    const entity = newAccountRow(tx, workspaceId, { ...user, oauthClientId: null, passwordHash: null, emailVerified: false });
    // ON CONFLICT DO NOTHING: no row back when (workspace, no application, lower(email)) is taken.
    const inserted = await tx.getRepository(EndUser).createQueryBuilder().insert().values(entity).orIgnore().returning(['id']).execute();
    const id = (inserted.raw as Array<{ id: string }>)[0]?.id;
    if (!id) return undefined;
    entity.id = id;
    return toAccount(entity);
  }

  private select() {
    return this.users
      .createQueryBuilder('u')
      .leftJoin('u.oauthClient', 'c')
      .select([...SELECTED, 'c.id', 'c.name']);
  }
}

function toAccount(u: EndUser): DirectoryAccount {
  return {
    id: u.id,
    workspaceId: u.workspaceId,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    isActive: u.isActive,
    emailVerified: u.emailVerified,
    hasPassword: u.passwordHash !== null && u.passwordHash !== undefined,
    application: u.oauthClient ? { id: u.oauthClient.id, name: u.oauthClient.name } : null,
    createdAt: u.createdAt,
  };
}
