import { Check, Column, Entity, Index } from 'typeorm';
import { SsoConnection } from './sso-connection.entity';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

/** One upstream answer to a connection, accepted or refused with its reason (the developer's "why did SSO fail?"). */
@Entity('sso_attempts')
@Index('sso_attempts_connection_idx', ['connectionId', 'at'])
@Check('sso_attempts_outcome_check', `outcome IN ('success', 'failure')`)
export class SsoAttempt extends WorkspaceRow {
  @ForeignKey('workspaces', 'sso_attempts', 'workspace_id') workspace?: object;
  @Column('uuid', { name: 'connection_id' }) connectionId!: string;
  @ForeignKey(() => SsoConnection, 'sso_attempts', 'connection_id') connection?: SsoConnection;
  @Column('timestamptz', { default: () => 'now()' }) at!: Date;
  @Column('text') outcome!: 'success' | 'failure';
  @Column('text', { nullable: true }) reason!: string | null;
  @Column('text', { nullable: true }) subject!: string | null;
  @Column('text', { nullable: true }) email!: string | null;
  /** The person signed in (no foreign key: the attempt outlives the account). */
  @Column('uuid', { name: 'user_id', nullable: true }) userId!: string | null;
  @Column('text', { name: 'request_id', nullable: true }) requestId!: string | null;
}
