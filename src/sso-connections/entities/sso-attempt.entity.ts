import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { SsoConnection } from './sso-connection.entity';

/** One upstream answer to a connection, accepted or refused with its reason (the developer's "why did SSO fail?"). */
@Entity('sso_attempts')
@Index('sso_attempts_connection_idx', ['connectionId', 'at'])
@Check('sso_attempts_outcome_check', `outcome IN ('success', 'failure')`)
export class SsoAttempt {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @ManyToOne('workspaces', { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'sso_attempts_workspace_id_fkey' })
  workspace?: object;
  @Column('uuid', { name: 'connection_id' }) connectionId!: string;
  @ManyToOne(() => SsoConnection, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'connection_id', foreignKeyConstraintName: 'sso_attempts_connection_id_fkey' })
  connection?: SsoConnection;
  @Column('timestamptz', { default: () => 'now()' }) at!: Date;
  @Column('text') outcome!: 'success' | 'failure';
  @Column('text', { nullable: true }) reason!: string | null;
  @Column('text', { nullable: true }) subject!: string | null;
  @Column('text', { nullable: true }) email!: string | null;
  /** The person signed in (no foreign key: the attempt outlives the account). */
  @Column('uuid', { name: 'user_id', nullable: true }) userId!: string | null;
  @Column('text', { name: 'request_id', nullable: true }) requestId!: string | null;
}
