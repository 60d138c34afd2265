import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Job } from './entities/job.entity';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';

/** The durable job queue in PostgreSQL (decision 0002): imported by the modules that enqueue or drain jobs. */
@Module({ imports: [TypeOrmModule.forFeature([Job])], providers: [JobsService, JobsRepository], exports: [JobsService] })
export class JobsModule {}
