import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A signing key of the authorization server (decision 0901): generated once per deployment and
 * shared by every instance. The private half is sealed with SECRETS_ENCRYPTION_KEY; the public
 * half is served as JWKS. A key is published before it signs (activatesAt, decision 0917); retired keys
 * stay published until the tokens they signed have expired.
 */
@Entity('oauth_signing_keys')
export class OAuthSigningKey {
  @PrimaryColumn('text') kid!: string;
  @Column('text') alg!: string;
  @Column('jsonb', { name: 'public_jwk' }) publicJwk!: Record<string, string>;
  @Column('text', { name: 'private_key' }) privateKey!: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  /** From when it signs; until then it is only published (a rotation's next key). */
  @Column('timestamptz', { name: 'activates_at', default: () => 'now()' }) activatesAt!: Date;
  /** From when it no longer signs (its successor's activation); published a day longer. */
  @Column('timestamptz', { name: 'retired_at', nullable: true }) retiredAt!: Date | null;
}
