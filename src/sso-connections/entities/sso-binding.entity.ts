import { Column, Entity, Index, Unique } from 'typeorm';
import { SsoConnection } from './sso-connection.entity';
import { ForeignKey } from '../../database/foreign-key';
import { WorkspaceRow } from '../../database/workspace-row';

/**
 * Which person of the workspace's directory an upstream subject is (decision 0410). Made at the
 * first sign-in by verified email; from then on the subject wins, so an email rename at the IdP
 * keeps the same person. One binding per subject and one per person on a connection.
 */
@Entity('sso_bindings')
@Unique('sso_bindings_subject_key', ['connectionId', 'issuer', 'subject'])
@Unique('sso_bindings_user_key', ['connectionId', 'userId'])
@Index('sso_bindings_user_idx', ['workspaceId', 'userId'])
export class SsoBinding extends WorkspaceRow {
  @ForeignKey('workspaces', 'sso_bindings', 'workspace_id') workspace?: object;
  @Column('uuid', { name: 'connection_id' }) connectionId!: string;
  @ForeignKey(() => SsoConnection, 'sso_bindings', 'connection_id') connection?: SsoConnection;
  /** OIDC `iss`, SAML IdP entity id. */
  @Column('text') issuer!: string;
  /** OIDC `sub`, SAML persistent NameID or the configured immutable attribute. */
  @Column('text') subject!: string;
  @Column('uuid', { name: 'user_id' }) userId!: string;
  @ForeignKey('end_users', 'sso_bindings', 'user_id') user?: object;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
  @Column('timestamptz', { name: 'last_sign_in_at', default: () => 'now()' }) lastSignInAt!: Date;
}
