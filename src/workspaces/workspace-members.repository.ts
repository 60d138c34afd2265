import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { entityColumns } from '../database/row-shape';
import { first, statement } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { WorkspaceMember, WorkspaceRole } from './entities/workspace-member.entity';

// ON CONFLICT: a second add of the same developer inserts nothing instead of aborting the transaction.
const ADD_MEMBER = statement(
  'workspace-members.add',
  `INSERT INTO workspace_members (workspace_id, developer_id, role) VALUES ($1, $2, $3)
  ON CONFLICT DO NOTHING RETURNING created_at`,
  entityColumns(WorkspaceMember, ['createdAt']),
);

/** A member as the members list shows them. */
export interface MemberRow {
  developerId: string;
  email: string;
  name: string;
  role: WorkspaceRole;
  createdAt: Date;
}

function toMemberRow(member: WorkspaceMember): MemberRow {
  // Loaded with it by listWithDevelopers; the foreign key is NOT NULL, so a member without one is a bug.
  if (!member.developer) throw new Error(`workspace member ${member.developerId} came without its developer`);
  return {
    developerId: member.developerId,
    email: member.developer.email,
    name: member.developer.name,
    role: member.role,
    createdAt: member.createdAt,
  };
}

/** workspace_members: who belongs to which workspace, as owner or member. */
@Injectable()
export class WorkspaceMembersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Adds the member; the membership's created_at, or null when the developer already is one. */
  async add(tx: Tx, workspaceId: string, developerId: string, role: WorkspaceRole): Promise<Date | null> {
    return (await first(tx, ADD_MEMBER, [workspaceId, developerId, role]))?.createdAt ?? null;
  }

  /** The workspace's members with their accounts, oldest membership first. */
  async listWithDevelopers(workspaceId: string): Promise<MemberRow[]> {
    const members = await this.dataSource.getRepository(WorkspaceMember).find({
      where: { workspaceId },
      relations: { developer: true },
      order: { createdAt: 'ASC', developerId: 'ASC' },
    });
    return members.map(toMemberRow);
  }

  /** Every membership of the workspace, locked until commit (so two removals cannot both pass the last-owner check). */
  lockAll(tx: Tx, workspaceId: string): Promise<Pick<WorkspaceMember, 'developerId' | 'role'>[]> {
    return tx.getRepository(WorkspaceMember).find({
      select: { developerId: true, role: true },
      where: { workspaceId },
      lock: { mode: 'pessimistic_write' },
    });
  }

  async remove(tx: Tx, workspaceId: string, developerId: string): Promise<void> {
    await tx.getRepository(WorkspaceMember).delete({ workspaceId, developerId });
  }
}
