import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { CommonModule } from '../common/common.module';
import { DirectoryEventsModule } from '../directory-events/directory-events.module';
import { JobsModule } from '../jobs/jobs.module';
import { OAuthModule } from '../oauth/oauth.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { SsfReceiver } from './entities/ssf-receiver.entity';
import { SsfSet } from './entities/ssf-set.entity';
import { SsfStreamSubject } from './entities/ssf-stream-subject.entity';
import { SsfStream } from './entities/ssf-stream.entity';
import { SetSigner } from './set-signer';
import { SsfBearerStrategy } from './ssf-bearer.strategy';
import { SsfClientStore } from './ssf-client.store';
import { SsfDispatcher } from './ssf-dispatcher';
import { SsfPollService } from './ssf-poll.service';
import { SsfPushWorker } from './ssf-push.worker';
import { SsfReceiversController } from './ssf-receivers.controller';
import { SsfReceiversRepository } from './ssf-receivers.repository';
import { SsfReceiversService } from './ssf-receivers.service';
import { SsfConfigurationController, SsfStreamsController } from './ssf-streams.controller';
import { SsfStreamsRepository } from './ssf-streams.repository';
import { SsfStreamsService } from './ssf-streams.service';

/** The Shared Signals transmitter (SSF 1.0, CAEP 1.0, RISC 1.0; docs/events.md "Shared Signals"). */
@Module({
  imports: [
    TypeOrmModule.forFeature([SsfReceiver, SsfStream, SsfStreamSubject, SsfSet]),
    OAuthModule,
    DirectoryEventsModule,
    JobsModule,
    WorkspacesModule,
    CommonModule,
    AuditModule,
  ],
  controllers: [SsfReceiversController, SsfConfigurationController, SsfStreamsController],
  providers: [
    SsfReceiversRepository,
    SsfStreamsRepository,
    SsfClientStore,
    SsfBearerStrategy,
    SetSigner,
    SsfReceiversService,
    SsfStreamsService,
    SsfPollService,
    SsfDispatcher,
    SsfPushWorker,
  ],
})
export class SharedSignalsModule {}
