import { formatLogLine } from './pretty-log';

describe('LOG_FORMAT=pretty lines (pino-pretty)', () => {
  it('writes an access line as method, path, status and latency with the request id', () => {
    const line = JSON.stringify({
      level: 40,
      time: 0,
      req: { id: 'r1', method: 'GET', path: '/x' },
      res: { statusCode: 404 },
      responseTime: 3,
      msg: 'request completed',
    });
    expect(formatLogLine(line, false)).toBe('[00:00:00.000] WARN: GET /x 404 3 ms (r1)\n');
  });

  it('names the context, keeps other fields and prints an error with its stack', () => {
    const line = JSON.stringify({
      level: 50,
      time: 0,
      context: 'Mail',
      msg: 'send failed',
      attempt: 2,
      err: { message: 'boom', stack: 'Error: boom\n    at x' },
    });
    const out = formatLogLine(line, false);
    expect(out.startsWith('[00:00:00.000] ERROR: [Mail] send failed {"attempt":2}\n')).toBe(true);
    expect(out).toContain('Error: boom');
    expect(out).toContain('at x');
  });

  it('passes the boot summary banner through as it is, and non-JSON unchanged', () => {
    expect(formatLogLine(JSON.stringify({ level: 30, banner: true, msg: '--\n  block\n--\n' }), false)).toBe('--\n  block\n--\n');
    expect(formatLogLine('not json', false)).toBe('not json\n');
  });
});
