import type { BackupRow, DatabaseRow, RestoreRow } from './managed-databases.repository';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The spec's Database resource, plus `error` (set when status is failed) and `workspace_id`. */
export function databaseView(r: DatabaseRow) {
  return {
    id: r.id,
    workspace_id: r.workspace_id,
    display_name: r.display_name,
    db_name: r.db_name,
    engine: r.engine,
    host: r.host,
    port: r.port,
    status: r.status,
    error: r.error,
    max_storage_mb: r.max_storage_mb,
    max_connections: r.max_connections,
    created_at: iso(r.created_at),
  };
}

export function backupView(r: BackupRow) {
  return {
    id: r.id,
    database_id: r.database_id,
    name: r.name,
    status: r.status,
    size_bytes: r.size_bytes === null ? null : Number(r.size_bytes),
    checksum_sha256: r.checksum_sha256,
    created_at: iso(r.created_at),
    started_at: iso(r.started_at),
    completed_at: iso(r.completed_at),
    error: r.error,
  };
}

export function restoreView(r: RestoreRow) {
  return {
    id: r.id,
    database_id: r.database_id,
    backup_id: r.backup_id,
    status: r.status,
    created_at: iso(r.created_at),
    started_at: iso(r.started_at),
    completed_at: iso(r.completed_at),
    error: r.error,
  };
}
