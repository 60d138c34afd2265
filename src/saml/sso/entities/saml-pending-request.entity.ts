import { Column, Entity, Index, Unique } from 'typeorm';
import { SamlServiceProvider } from '../../sps/entities/saml-service-provider.entity';
import { ForeignKey } from '../../../database/foreign-key';
import { WorkspaceRow } from '../../../database/workspace-row';

/** An AuthnRequest parked while the browser signs in; only the hash of its ticket (a cookie) is kept. */
@Entity('saml_pending_requests')
@Unique('saml_pending_requests_ticket_hash_key', ['ticketHash'])
@Index('saml_pending_requests_expiry_idx', ['expiresAt'])
@Index('saml_pending_requests_client_idx', ['clientIp', 'createdAt'])
export class SamlPendingRequest extends WorkspaceRow {
  // Named by table: the workspaces entity belongs to the workspaces module.
  @ForeignKey('workspaces', 'saml_pending_requests', 'workspace_id', { onDelete: 'CASCADE' }) workspace?: object;
  @Column('uuid', { name: 'service_provider_id' }) serviceProviderId!: string;
  @ForeignKey(() => SamlServiceProvider, 'saml_pending_requests', 'service_provider_id', { onDelete: 'CASCADE' })
  serviceProvider?: SamlServiceProvider;
  @Column('text', { name: 'ticket_hash' }) ticketHash!: string;
  @Column('jsonb') request!: Record<string, unknown>;
  @Column('text', { name: 'relay_state', nullable: true }) relayState!: string | null;
  /** The address that parked it: each address keeps at most SAML_PENDING_PER_CLIENT. */
  @Column('text', { name: 'client_ip', nullable: true }) clientIp!: string | null;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
}
