import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommonModule } from '../common/common.module';
import { JobsModule } from '../jobs/jobs.module';
import { BackupsController } from './backups.controller';
import { BackupsService } from './backups.service';
import { DatabasesController } from './databases.controller';
import { DatabasesService } from './databases.service';
import { EngineRegistry } from './engine-registry';
import { ManagedDatabaseBackup } from './entities/managed-database-backup.entity';
import { ManagedDatabaseRestore } from './entities/managed-database-restore.entity';
import { ManagedDatabase } from './entities/managed-database.entity';
import { ManagedDbJobs } from './managed-db.jobs';
import { ManagedDatabasesRepository } from './managed-databases.repository';
import { TenantSecrets } from './tenant-secrets';

/** Area F: managed databases on real engines (Postgres, Redis, MongoDB). */
@Module({
  imports: [TypeOrmModule.forFeature([ManagedDatabase, ManagedDatabaseBackup, ManagedDatabaseRestore]), CommonModule, JobsModule],
  controllers: [DatabasesController, BackupsController],
  providers: [EngineRegistry, ManagedDatabasesRepository, TenantSecrets, DatabasesService, BackupsService, ManagedDbJobs],
})
export class ManagedDatabasesModule {}
