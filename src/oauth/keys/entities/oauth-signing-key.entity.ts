import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A signing key of the authorization server (decision 0901): generated once per deployment and
 * shared by every instance. The private half is sealed with SECRETS_ENCRYPTION_KEY; the public
 * half is served as JWKS. Retired keys stay published until the tokens they signed have expired.
 */
@Entity('oauth_signing_keys')
export class OAuthSigningKey {
  @PrimaryColumn('text') kid!: string;
  @Column('text') alg!: string;
  @Column('jsonb', { name: 'public_jwk' }) publicJwk!: Record<string, string>;
  @Column('text', { name: 'private_key' }) privateKey!: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column('timestamptz', { name: 'retired_at', nullable: true }) retiredAt!: Date | null;
}
