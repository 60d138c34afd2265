import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One cached geolocation lookup (used when REDIS_URL is unset). IP -> place is public knowledge,
 * not tenant data: no workspace_id, one entry serves every tenant (decision 0403).
 */
@Entity('geo_cache')
@Index('geo_cache_expires_at_idx', ['expiresAt'])
export class GeoCacheEntry {
  @PrimaryColumn('text') ip!: string;
  /** A GeoInfo as JSON; read back through decodeGeo, so an old or corrupt entry is a miss. */
  @Column('jsonb') data!: unknown;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
}
