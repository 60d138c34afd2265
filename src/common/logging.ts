import type { Params } from 'nestjs-pino';
import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/config';
import { prettyStream } from './pretty-log';

const roots = new WeakMap<AppConfig, Logger>();

/**
 * The process's one pino logger (per app instance): application logs go through it via
 * nestjs-pino, and httpPipeline writes the access-log line with it. Credentials are
 * redacted wherever they might appear. There is no per-request log context
 * (AsyncLocalStorage): on Node 20 it hooks every promise of every request, about 12 % of
 * a SCIM read's CPU (decision 0011). The access line carries the request id, and
 * failure lines written while serving a request name it themselves.
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
    };
    const destination = bufferedDestination(config.LOG_FILE);
    const colour = !config.LOG_FILE && process.stdout.isTTY === true && !process.env.NO_COLOR;
    root = pino(options, config.LOG_FORMAT === 'pretty' ? prettyStream(destination, colour) : destination);
    roots.set(config, root);
  }
  return root;
}

/** Lines are flushed at least this often, so a quiet service's log is never stale for long. */
const FLUSH_INTERVAL_MS = 250;

/**
 * LOG_FILE, else stdout, written asynchronously in chunks of up to 4 KiB instead of one
 * write(2) per line: with an access-log line per request, a busy service otherwise makes
 * one system call per request for its log alone. pino flushes what is buffered when the
 * process exits; a kill -9 can lose at most the last 250 ms of lines.
 */
function bufferedDestination(file: string | undefined) {
  const destination = pino.destination({ dest: file ?? 1, mkdir: file !== undefined, sync: false, minLength: 4096 });
  setInterval(() => {
    try {
      destination.flush(); // no callback: with one, every flush would also fsync
    } catch {
      // Destroyed at shutdown: nothing left to flush.
    }
  }, FLUSH_INTERVAL_MS).unref();
  return destination;
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
