import { Module } from '@nestjs/common';
import { BackupsController } from './backups.controller';
import { BackupsService } from './backups.service';
import { DatabasesController } from './databases.controller';
import { DatabasesService } from './databases.service';
import { EngineRegistry } from './engine-registry';
import { ManagedDbJobs } from './managed-db.jobs';
import { ManagedDatabasesRepository } from './managed-databases.repository';
import { TenantSecrets } from './tenant-secrets';

/** Area F: managed databases on real engines (Postgres, Redis, MongoDB). */
@Module({
  controllers: [DatabasesController, BackupsController],
  providers: [EngineRegistry, ManagedDatabasesRepository, TenantSecrets, DatabasesService, BackupsService, ManagedDbJobs],
})
export class ManagedDatabasesModule {}
