import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { SamlServiceProvider } from '../../sps/entities/saml-service-provider.entity';
import { ForeignKey } from '../../../database/foreign-key';

/**
 * An AuthnRequest ID an SP has used, kept until a request with that ID would be stale anyway
 * (decision 0208): a second use of the ID by the same SP is a replay.
 */
@Entity('saml_seen_requests')
@Index('saml_seen_requests_expiry_idx', ['expiresAt'])
export class SamlSeenRequest {
  @PrimaryColumn('uuid', { name: 'service_provider_id' }) serviceProviderId!: string;
  @ForeignKey(() => SamlServiceProvider, 'saml_seen_requests', 'service_provider_id', { onDelete: 'CASCADE' })
  serviceProvider?: SamlServiceProvider;
  @PrimaryColumn('text', { name: 'request_id' }) requestId!: string;
  @Column('uuid', { name: 'workspace_id' }) workspaceId!: string;
  // Named by table: the workspaces entity belongs to the workspaces module.
  @ForeignKey('workspaces', 'saml_seen_requests', 'workspace_id', { onDelete: 'CASCADE' }) workspace?: object;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
}
