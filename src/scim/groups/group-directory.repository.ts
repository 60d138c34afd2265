import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ScimGroupMember } from './entities/scim-group-member.entity';
import { ScimGroup } from './entities/scim-group.entity';

/** A group as the developer's directory lists it. */
export type DirectoryGroupRow = Pick<ScimGroup, 'id' | 'displayName' | 'externalId' | 'createdAt'>;

/** Where a page of groups starts: after this (lower(display_name), id). */
export interface GroupPosition {
  name: string;
  id: string;
}

const SELECTED = ['g.id', 'g.displayName', 'g.externalId', 'g.createdAt'];

/**
 * The developer's view of a workspace's SCIM groups (the console's Directory): by name, and the
 * groups one person belongs to. CRUD-shaped reads through TypeORM; every method takes the workspace first.
 */
@Injectable()
export class GroupDirectoryRepository {
  constructor(@InjectRepository(ScimGroup) private readonly groups: Repository<ScimGroup>) {}

  /** Up to `limit` groups after `after`, by lower(display_name) then id; `search` matches the name, case-insensitively. */
  async page(workspaceId: string, search: string | undefined, after: GroupPosition | null, limit: number): Promise<DirectoryGroupRow[]> {
    const query = this.groups.createQueryBuilder('g').select(SELECTED).where('g.workspaceId = :workspaceId', { workspaceId });
    if (search) {
      const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query.andWhere(`lower(g.displayName) LIKE :pattern ESCAPE '\\'`, { pattern });
    }
    if (after) query.andWhere('(lower(g.displayName), g.id) > (:afterName, :afterId::uuid)', { afterName: after.name, afterId: after.id });
    return query.orderBy('lower(g.displayName)').addOrderBy('g.id').limit(limit).getMany();
  }

  /** The groups this user of the workspace is a member of, by name. */
  async ofUser(workspaceId: string, userId: string): Promise<DirectoryGroupRow[]> {
    return this.groups
      .createQueryBuilder('g')
      .select(SELECTED)
      .innerJoin(ScimGroupMember, 'gm', 'gm.groupId = g.id AND gm.workspaceId = g.workspaceId')
      .where('g.workspaceId = :workspaceId AND gm.userId = :userId', { workspaceId, userId })
      .orderBy('lower(g.displayName)')
      .addOrderBy('g.id')
      .getMany();
  }
}
