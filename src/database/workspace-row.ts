import {
  Column,
  type DeepPartial,
  type EntityTarget,
  type FindOptionsOrder,
  type FindOptionsWhere,
  PrimaryGeneratedColumn,
  type Repository,
} from 'typeorm';
import type { Tx } from './unit-of-work';

/**
 * The two columns a tenant table's rows start with: the row's uuid and the workspace it belongs to
 * (every query filters on it). Each entity declares its own relation to the workspace, whose
 * constraint carries the table's name (ForeignKey).
 */
export abstract class WorkspaceRow {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
}

/**
 * Inserts a tenant row and reads it back as PostgreSQL stored it: what the table fills itself
 * (created_at, a bigint position as text) comes from the database, not from the values sent.
 */
export async function insertWorkspaceRow<E extends WorkspaceRow>(tx: Tx, entity: EntityTarget<E>, values: DeepPartial<E>): Promise<E> {
  const rows = tx.getRepository(entity);
  const { id } = await rows.save(rows.create(values));
  // TypeORM cannot see through a generic entity that `id` and `workspaceId` are its columns: WorkspaceRow says so.
  return rows.findOneByOrFail({ id } as FindOptionsWhere<E>);
}

/** A workspace's rows in the order they were created, the order the console and the API list them in. */
export function inCreationOrder<E extends WorkspaceRow & { createdAt: Date }>(rows: Repository<E>, workspaceId: string): Promise<E[]> {
  return rows.find({ where: { workspaceId } as FindOptionsWhere<E>, order: { createdAt: 'ASC', id: 'ASC' } as FindOptionsOrder<E> });
}
