import { Inject, Injectable } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box';
import { APP_CONFIG, type AppConfig } from '../config/config';
import type { TenantDatabase } from './engines/database-engine';
import type { ManagedDatabase } from './entities/managed-database.entity';

/** Engine passwords at rest: AES-256-GCM under SECRETS_ENCRYPTION_KEY (keyring, key id in each value). */
@Injectable()
export class TenantSecrets {
  private readonly box: SecretBox;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.box = new SecretBox(config.SECRETS_ENCRYPTION_KEY!);
  }

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
