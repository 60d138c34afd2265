import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The deployment's key of the pairwise SAML identifiers (one row, decision 0207): generated and
 * sealed with the secret box when SAML_NAMEID_SECRET is unset, or only the check value of the
 * variable's key when it is set. Every instance reads the same row, so every instance derives the
 * same NameIDs; the check value lets a boot refuse a key that would change them.
 */
@Entity('saml_nameid_keys')
@Check('saml_nameid_keys_singleton', 'id = 1')
export class SamlNameIdKey {
  @PrimaryColumn('smallint', { default: 1 }) id!: number;
  /** The generated key, sealed (SecretBox); null when the key is SAML_NAMEID_SECRET's. */
  @Column('text', { name: 'sealed_key', nullable: true }) sealedKey!: string | null;
  /** HMAC-SHA256 of a fixed label under the key: tells whether a key is this one without revealing it. */
  @Column('text', { name: 'check_value' }) checkValue!: string;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt!: Date;
}
