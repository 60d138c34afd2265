import { INestApplication, VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { answerUnparsableRequests } from './common/client-error';
import { QuietBootLogger } from './common/boot-logger';
import { SharedPrototypeExpressAdapter } from './common/express-adapter';
import { httpPipeline } from './common/http-pipeline';
import { refusalBeforeRouting } from './common/budget/refusal-before-routing';
import { RequestBudget } from './common/budget/request-budget';
import { dashboardCors } from './common/cors';
import { rootLogger } from './common/logging';
import { APP_CONFIG, AppConfig } from './config/config';
import { setupOpenApi } from './openapi';
import { ApplicationCors } from './oidc/cors/application-cors';
import type { NextFunction, Request, Response } from 'express';

/**
 * The one place the Nest application is configured, for main.ts and the tests
 * alike. Global pipe, filter and guard are APP_* providers in AppModule.
 */
export async function createApp(): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, new SharedPrototypeExpressAdapter(), {
    bodyParser: false,
    bufferLogs: true,
    // A provider that throws at boot (a configuration error) rejects here, for main.ts to report,
    // instead of Nest aborting the process (and a test worker with it), and the buffered boot lines
    // are not printed around it (main.ts flushes them for an unexpected error).
    abortOnError: false,
    autoFlushLogs: false,
  });
  const config = app.get<AppConfig>(APP_CONFIG);
  app.useLogger(new QuietBootLogger(app.get(Logger)));
  app.flushLogs();
  app.set('trust proxy', config.TRUST_PROXY);
  app.disable('x-powered-by');
  // No ETags: SCIM must not send them (spec: etag not supported), and no API relies on them.
  app.set('etag', false);
  // Before routing: a tenant's requests over its budget are refused here, at the cost of a lookup (decision 0612).
  app.use(httpPipeline(config, rootLogger(config), refusalBeforeRouting(app.get(RequestBudget))));
  answerUnparsableRequests(app.getHttpServer());
  // The OpenID provider's CORS (decision 0932), before routing and as plain middleware: it picks its own paths
  // (a request without Origin leaves at once), and mounted on exact paths it became a route on every method,
  // which the 405's Allow header and error surface read.
  const applicationCors = app.get(ApplicationCors);
  app.use((req: Request, res: Response, next: NextFunction) => applicationCors.use(req, res, next));
  // A dashboard on another origin (CORS_ORIGINS): developer API only, with credentials, preflights answered here.
  const cors = dashboardCors(config.CORS_ORIGINS);
  if (cors) app.enableCors(cors);
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: undefined });
  app.enableShutdownHooks();
  setupOpenApi(app);
  return app;
}
