import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import { SsoConnection } from './sso-connection.entity';
import { ForeignKey } from '../../database/foreign-key';

/**
 * An email domain a connection serves. The hosted login routes its addresses to the connection
 * only once the workspace proved it holds the domain with a DNS TXT record carrying
 * `verification_token`; a domain belongs to one connection per workspace, and is verified for one
 * workspace at most (decision 0440).
 */
@Entity('sso_connection_domains')
@Unique('sso_connection_domains_workspace_domain_key', ['workspaceId', 'domain'])
@Index('sso_connection_domains_verified_key', ['domain'], { unique: true, where: 'verified_at IS NOT NULL' })
export class SsoConnectionDomain {
  @PrimaryColumn('uuid', { name: 'connection_id' }) connectionId!: string;
  @ForeignKey(() => SsoConnection, 'sso_connection_domains', 'connection_id') connection?: SsoConnection;
  @PrimaryColumn('text') domain!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @ForeignKey('workspaces', 'sso_connection_domains', 'workspace_id') workspace?: object;
  @Column('text', { name: 'verification_token' }) verificationToken!: string;
  @Column('timestamptz', { name: 'verified_at', nullable: true }) verifiedAt!: Date | null;
  /** The last DNS lookup for the record, found or not. */
  @Column('timestamptz', { name: 'checked_at', nullable: true }) checkedAt!: Date | null;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
}
