import type { ManagedDatabaseBackup } from './entities/managed-database-backup.entity';
import type { ManagedDatabaseRestore } from './entities/managed-database-restore.entity';
import type { ManagedDatabase } from './entities/managed-database.entity';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The spec's Database resource, plus `error` (set when status is failed) and `workspace_id`. */
export function databaseView(r: ManagedDatabase) {
  return {
    id: r.id,
    workspace_id: r.workspaceId,
    display_name: r.displayName,
    db_name: r.dbName,
    engine: r.engine,
    host: r.host,
    port: r.port,
    status: r.status,
    error: r.error,
    max_storage_mb: r.maxStorageMb,
    max_connections: r.maxConnections,
    created_at: iso(r.createdAt),
  };
}

export function backupView(r: ManagedDatabaseBackup) {
  return {
    id: r.id,
    database_id: r.databaseId,
    name: r.name,
    status: r.status,
    size_bytes: r.sizeBytes === null ? null : Number(r.sizeBytes),
    checksum_sha256: r.checksumSha256,
    created_at: iso(r.createdAt),
    started_at: iso(r.startedAt),
    completed_at: iso(r.completedAt),
    error: r.error,
  };
}

export function restoreView(r: ManagedDatabaseRestore) {
  return {
    id: r.id,
    database_id: r.databaseId,
    backup_id: r.backupId,
    status: r.status,
    created_at: iso(r.createdAt),
    started_at: iso(r.startedAt),
    completed_at: iso(r.completedAt),
    error: r.error,
  };
}
