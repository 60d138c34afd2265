/**
 * LOG_FORMAT=pretty: pino's JSON lines rewritten for a person at a terminal, one line
 * each: time, level, context, message, then the remaining fields as key=value. An access
 * line reads `GET /path 200 3 ms (request id)`. pino-pretty is not a dependency; this
 * covers what the service logs (decision 0020). Production keeps JSON.
 */
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const COLOURS: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '35' };
const OMIT = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'context', 'req', 'res', 'responseTime', 'err']);

export function formatLogLine(line: string, colour: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  if (entry.banner === true && typeof entry.msg === 'string') return entry.msg;
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now()).toISOString().slice(11, 23);
  const paint = (code: string, text: string) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
  const parts = [paint('90', time), paint(COLOURS[level] ?? '0', LEVELS[level] ?? String(level))];
  if (typeof entry.context === 'string') parts.push(paint('36', `[${entry.context}]`));
  const req = entry.req as { id?: string; method?: string; path?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (req?.method && res?.statusCode !== undefined) {
    parts.push(`${req.method} ${req.path ?? ''} ${res.statusCode} ${String(entry.responseTime ?? '?')} ms`);
    if (entry.msg && entry.msg !== 'request completed' && entry.msg !== 'request errored') parts.push(String(entry.msg));
    if (req.id) parts.push(paint('90', `(${req.id})`));
  } else if (entry.msg !== undefined) {
    parts.push(String(entry.msg));
  }
  const extra = Object.entries(entry)
    .filter(([key]) => !OMIT.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  if (extra.length) parts.push(paint('90', extra.join(' ')));
  let out = parts.join(' ');
  const err = entry.err as { stack?: string; message?: string } | undefined;
  if (err) out += `\n${err.stack ?? err.message ?? JSON.stringify(err)}`;
  return `${out}\n`;
}

/** A pino destination that formats each line before handing it to the real one. */
export function prettyStream(target: { write(chunk: string): unknown }, colour: boolean): { write(chunk: string): void } {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line) target.write(formatLogLine(line, colour));
    },
  };
}
