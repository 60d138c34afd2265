import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { COMMON_ERRORS } from './common.errors';

/**
 * Node's HTTP parser refuses a request it cannot parse before Express sees it: a header value
 * with U+0000 or another control character, a malformed request line, headers too large.
 * Node's own answer is a bare status line; this one says the same in the service's JSON error
 * format ({error, message}), with Node's statuses (431 for oversized headers, 408 for a request
 * that timed out, 400 otherwise), and closes the connection as Node does.
 */
export function answerUnparsableRequests(server: Server): void {
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [error, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [COMMON_ERRORS.headers_too_large, 'The request headers are too large']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [COMMON_ERRORS.request_timeout, 'The request took too long to arrive']
          : /HEADER|TOKEN|VALUE/.test(err.code ?? '')
            ? [
                COMMON_ERRORS.invalid_header,
                'A request header holds a character that is not allowed (such as U+0000 or another control character)',
              ]
            : [COMMON_ERRORS.bad_request, 'The request could not be parsed as HTTP'];
    const status = error.status;
    const body = JSON.stringify({ error: error.code, message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
