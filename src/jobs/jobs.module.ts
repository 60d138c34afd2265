import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Job } from './entities/job.entity';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';

@Global()
@Module({ imports: [TypeOrmModule.forFeature([Job])], providers: [JobsService, JobsRepository], exports: [JobsService] })
export class JobsModule {}
