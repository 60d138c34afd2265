import { Injectable } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box';
import type { TenantDatabase } from './engines/database-engine';
import type { ManagedDatabase } from './entities/managed-database.entity';

/** Engine passwords at rest: AES-256-GCM under SECRETS_ENCRYPTION_KEY (keyring, key id in each value). */
@Injectable()
export class TenantSecrets {
  constructor(private readonly box: SecretBox) {}

  encrypt(password: string): string {
    return this.box.encrypt(password);
  }

  /** What an engine needs to act for this database, password decrypted. */
  tenant(row: ManagedDatabase): TenantDatabase {
    return {
      dbName: row.dbName,
      username: row.username,
      password: this.box.decrypt(row.passwordEncrypted),
      maxConnections: row.maxConnections,
      maxStorageMb: row.maxStorageMb,
    };
  }
}
