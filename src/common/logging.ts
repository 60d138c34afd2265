import { AsyncLocalStorage } from 'node:async_hooks';
import type { Params } from 'nestjs-pino';
import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/config';

/** The current request's id, so that every log line written while serving it carries it. */
export const requestContext = new AsyncLocalStorage<{ requestId: string }>();

const roots = new WeakMap<AppConfig, Logger>();

/**
 * The process's one pino logger (per app instance): application logs go through it via
 * nestjs-pino, and httpPipeline writes the access-log line with it. Credentials are
 * redacted wherever they might appear; lines written during a request carry `reqId`.
 */
export function rootLogger(config: AppConfig): Logger {
  let root = roots.get(config);
  if (!root) {
    const options: pino.LoggerOptions = {
      level: config.LOG_LEVEL,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
      mixin: () => {
        const context = requestContext.getStore();
        return context ? { reqId: context.requestId } : {};
      },
    };
    root = config.LOG_FILE ? pino(options, pino.destination({ dest: config.LOG_FILE, mkdir: true, sync: false })) : pino(options);
    roots.set(config, root);
  }
  return root;
}

/**
 * nestjs-pino serves the application logs through the root logger and installs no
 * pino-http middleware (`forRoutes: []`): pino-http builds two child loggers per request,
 * which cost more than the rest of the request pipeline together. The access log is
 * written by httpPipeline instead.
 */
export function loggerParams(config: AppConfig): Params {
  return { pinoHttp: { logger: rootLogger(config) }, forRoutes: [] };
}
