import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { LoggerModule } from 'nestjs-pino';
import { AnomaliesModule } from './anomalies/anomalies.module';
import { ENTITIES } from './app.entities';
import { AuditWriter } from './audit/audit-writer';
import { AuditWriterModule } from './audit/audit-writer.module';
import { AuditModule } from './audit/audit.module';
import { AuthenticationGuard } from './common/auth/auth.guard';
import { RequestBudgetGuard } from './common/budget/request-budget.guard';
import { CommonModule } from './common/common.module';
import { ConsoleModule } from './console/console.module';
import { AllExceptionsFilter } from './common/exception.filter';
import { loggerParams } from './common/logging';
import { RouteSurfaces } from './common/route-surfaces';
import { buildValidationPipe } from './common/validation';
import { APP_CONFIG, AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { DirectoryEventWriter } from './directory-events/directory-event-writer';
import { DirectoryEventsModule } from './directory-events/directory-events.module';
import { DirectoryEventsWriterModule } from './directory-events/directory-events-writer.module';
import { DevelopersModule } from './developers/developers.module';
import { DirectoryModule } from './directory/directory.module';
import { EndUsersModule } from './end-users/end-users.module';
import { HealthModule } from './health/health.module';
import { HostedLoginModule } from './hosted-login/hosted-login.module';
import { JobsModule } from './jobs/jobs.module';
import { LandingModule } from './landing/landing.module';
import { ManagedDatabasesModule } from './managed-databases/managed-databases.module';
import { OAuthClientsModule } from './oauth-clients/oauth-clients.module';
import { OAuthModule } from './oauth/oauth.module';
import { OidcModule } from './oidc/oidc.module';
import { SamlModule } from './saml/saml.module';
import { TestSpModule } from './saml/test-sp/test-sp.module';
import { ScimModule } from './scim/scim.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { SsoConnectionsModule } from './sso-connections/sso-connections.module';
import { SharedSignalsModule } from './shared-signals/shared-signals.module';
import { WorkspaceMemberGuard } from './workspaces/workspace-scoped';
import { WorkspacesModule } from './workspaces/workspaces.module';

@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync({ inject: [APP_CONFIG], useFactory: (config: AppConfig) => loggerParams(config) }),
    EventEmitterModule.forRoot(),
    // RouteSurfaces reads each controller's error surface (decision 0160).
    DiscoveryModule,
    // The unit of work's transaction-phase writers, in order: the audit row and the directory
    // events (the outbox of the feed, webhooks and Shared Signals) commit with their change.
    DatabaseModule.forRoot(ENTITIES, {
      imports: [AuditWriterModule, DirectoryEventsWriterModule],
      writers: [AuditWriter, DirectoryEventWriter],
    }),
    CommonModule,
    JobsModule,
    AuditModule,
    HealthModule,
    DevelopersModule,
    WorkspacesModule,
    OAuthClientsModule,
    OAuthModule,
    ScimModule,
    EndUsersModule,
    HostedLoginModule,
    OidcModule,
    AnomaliesModule,
    ManagedDatabasesModule,
    SamlModule,
    LandingModule,
    TestSpModule,
    WebhooksModule,
    DirectoryEventsModule,
    SharedSignalsModule,
    SsoConnectionsModule,
    ConsoleModule,
    DirectoryModule,
  ],
  providers: [
    { provide: APP_PIPE, useFactory: buildValidationPipe },
    RouteSurfaces,
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    { provide: APP_GUARD, useClass: AuthenticationGuard },
    // After authentication (guards run in this order): routes with @WorkspaceScoped need a member.
    { provide: APP_GUARD, useClass: WorkspaceMemberGuard },
    // Last: the caller's budget is spent once it is known to be allowed in (decision 0620).
    { provide: APP_GUARD, useClass: RequestBudgetGuard },
  ],
})
export class AppModule {}
