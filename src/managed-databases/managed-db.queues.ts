/** Durable job queues of the module (drained by the spine's JobsService). */
export const QUEUES = {
  provision: 'managed-db.provision',
  deprovision: 'managed-db.deprovision',
  backup: 'managed-db.backup',
  restore: 'managed-db.restore',
  /** Attempts before a database is declared `failed` (backoff 2 s, 4 s, 8 s, 16 s). */
  provisionAttempts: 5,
  backupAttempts: 3,
} as const;

export interface DatabaseJob {
  databaseId: string;
  workspaceId: string;
}

export interface BackupJob {
  backupId: string;
  workspaceId: string;
}

export interface RestoreJob {
  restoreId: string;
  workspaceId: string;
}
