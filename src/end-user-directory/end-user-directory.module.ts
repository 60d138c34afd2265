import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EndUsersRepository } from './end-users.repository';
import { EndUser } from './entities/end-user.entity';

/**
 * The end_users table and its repository, below both the end-users module and the
 * email-verification module (which verifies an address and issues codes for the same people):
 * each imports this one, so neither needs the other's module to reach the directory. Which
 * modules may read end_users at all is written in .dependency-cruiser.cjs (decision 0155).
 */
@Module({ imports: [TypeOrmModule.forFeature([EndUser])], providers: [EndUsersRepository], exports: [EndUsersRepository] })
export class EndUserDirectoryModule {}
