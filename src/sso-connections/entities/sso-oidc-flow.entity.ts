import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { SsoConnection } from './sso-connection.entity';
import { ForeignKey } from '../../database/foreign-key';

/** One OIDC sign-in waiting for the provider's answer (decision 0412): spent once, bound to its browser. */
@Entity('sso_oidc_flows')
@Index('sso_oidc_flows_expires_idx', ['expiresAt'])
export class SsoOidcFlow {
  /** SHA-256 (hex) of the `state` sent to the provider. */
  @PrimaryColumn('text', { name: 'state_hash' }) stateHash!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  @ForeignKey('workspaces', 'sso_oidc_flows', 'workspace_id') workspace?: object;
  @Column('uuid', { name: 'connection_id' }) connectionId!: string;
  @ForeignKey(() => SsoConnection, 'sso_oidc_flows', 'connection_id') connection?: SsoConnection;
  /** SHA-256 (hex) of the browser's flow cookie. */
  @Column('text', { name: 'browser_hash' }) browserHash!: string;
  @Column('text') nonce!: string;
  @Column('text', { name: 'code_verifier_encrypted' }) codeVerifierEncrypted!: string;
  @Column('text') next!: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
  @Column('timestamptz', { name: 'used_at', nullable: true }) usedAt!: Date | null;
}
