import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A client assertion (private_key_jwt) or JWT-bearer grant already used, by issuer and jti
 * (RFC 7523 §3: "the authorization server MAY ensure that JWTs are not replayed"). Kept until the
 * assertion itself expires; after that its `exp` refuses it anyway. Not tenant data.
 */
@Entity('oauth_assertion_jtis')
@Index('oauth_assertion_jtis_expires_idx', ['expiresAt'])
export class OAuthAssertionJti {
  @PrimaryColumn('text') issuer!: string;
  @PrimaryColumn('text') jti!: string;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
}
