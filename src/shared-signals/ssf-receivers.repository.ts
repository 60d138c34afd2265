import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tx } from '../database/unit-of-work';
import { inCreationOrder, insertWorkspaceRow } from '../database/workspace-row';
import { DefaultSubjects, SsfReceiver } from './entities/ssf-receiver.entity';

export interface NewReceiver {
  name: string;
  clientId: string;
  secretHash: string;
  defaultSubjects: DefaultSubjects;
  createdBy: string | null;
}

/** ssf_receivers. Tenant methods take the workspace first. */
@Injectable()
export class SsfReceiversRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  insert(tx: Tx, workspaceId: string, values: NewReceiver): Promise<SsfReceiver> {
    return insertWorkspaceRow(tx, SsfReceiver, { workspaceId, ...values });
  }

  list(workspaceId: string): Promise<SsfReceiver[]> {
    return inCreationOrder(this.dataSource.getRepository(SsfReceiver), workspaceId);
  }

  /** Any workspace's receiver by id: the service checks membership of its workspace. */
  findById(tx: Tx | null, id: string): Promise<SsfReceiver | null> {
    return (tx ?? this.dataSource.manager).getRepository(SsfReceiver).findOneBy({ id });
  }

  /** In the caller's transaction where there is one: a second connection would wait for ever on a pool of one. */
  find(tx: Tx | null, workspaceId: string, id: string): Promise<SsfReceiver | null> {
    return (tx ?? this.dataSource.manager).getRepository(SsfReceiver).findOneBy({ workspaceId, id });
  }

  /** The receiver a token request names (client_id is unique across workspaces). */
  findByClientId(clientId: string): Promise<SsfReceiver | null> {
    return this.dataSource.getRepository(SsfReceiver).findOneBy({ clientId });
  }

  async delete(tx: Tx, workspaceId: string, id: string): Promise<boolean> {
    const result = await tx.getRepository(SsfReceiver).delete({ workspaceId, id });
    return (result.affected ?? 0) > 0;
  }
}
