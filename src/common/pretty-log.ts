import { PrettyOptions, prettyFactory } from 'pino-pretty';

/**
 * LOG_FORMAT=pretty: pino's JSON lines rewritten by pino-pretty for a person at a terminal, one
 * line each: time, level, [context], message, then the remaining fields. An access line reads
 * `GET /path 200 3 ms (request id)`. The boot summary (`banner: true`) is printed as it is.
 * Production keeps JSON (decision 0020).
 */
export function prettyOptions(colour: boolean): PrettyOptions {
  return {
    colorize: colour,
    singleLine: true,
    translateTime: 'UTC:HH:MM:ss.l',
    ignore: 'pid,hostname,context,req,res,responseTime',
    messageFormat: (log, messageKey) => describe(log, messageKey),
  };
}

function describe(log: Record<string, unknown>, messageKey: string): string {
  const message = log[messageKey] === undefined ? '' : String(log[messageKey]);
  const context = typeof log.context === 'string' ? `[${log.context}] ` : '';
  const req = log.req as { id?: string; method?: string; path?: string } | undefined;
  const res = log.res as { statusCode?: number } | undefined;
  if (!req?.method || res?.statusCode === undefined) return `${context}${message}`;
  const note = message && message !== 'request completed' && message !== 'request errored' ? ` ${message}` : '';
  const id = req.id ? ` (${req.id})` : '';
  return `${context}${req.method} ${req.path ?? ''} ${res.statusCode} ${String(log.responseTime ?? '?')} ms${note}${id}`;
}

/** One JSON line as the terminal shows it. */
export function formatLogLine(line: string, colour: boolean, pretty = prettyFactory(prettyOptions(colour))): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  if (entry.banner === true && typeof entry.msg === 'string') return entry.msg;
  return pretty(entry);
}

/** A pino destination that formats each line before handing it to the real one. */
export function prettyStream(target: { write(chunk: string): unknown }, colour: boolean): { write(chunk: string): void } {
  const pretty = prettyFactory(prettyOptions(colour));
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line) target.write(formatLogLine(line, colour, pretty));
    },
  };
}
