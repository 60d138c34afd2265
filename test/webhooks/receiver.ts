import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The `standardwebhooks` package's verifier (npm install -D standardwebhooks). */
type StandardWebhook = new (secret: string) => { verify(payload: string, headers: Record<string, string>): unknown };
const PACKAGE = 'standardwebhooks';

async function standardWebhook(): Promise<StandardWebhook> {
  const mod = (await import(PACKAGE)) as { Webhook: StandardWebhook };
  return mod.Webhook;
}

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  body: string;
  /** An audit event's body ({type, timestamp, data}) or a directory event's (the feed's event object). */
  payload: { type: string; timestamp?: string; data: Record<string, unknown>; id?: string; seq?: number; occurred_at?: string };
  headers: IncomingHttpHeaders;
  /** Which secret the signature verified with: `secret`, or one of `previousSecrets`. */
  verifiedWith: 'current' | 'previous';
}

/**
 * A loopback webhook receiver: every request is checked with the `standardwebhooks` package
 * against the endpoint's secret (a request that does not verify is recorded in `rejected` and
 * answered 401), answered with `status` (default 204), and can be taken down and brought back on
 * the same port.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  readonly rejected: { headers: IncomingHttpHeaders; error: string }[] = [];
  /**
   * Requests that came before the test gave the receiver its secret (an event of the endpoint's own
   * creation can arrive while the console still shows the secret): answered 503, as a receiver not yet
   * configured would, so the service retries them; they are neither verified nor rejected.
   */
  readonly beforeSecret: IncomingHttpHeaders[] = [];
  /** The answer to the next requests; 'redirect' answers 302 to `redirectTo`. */
  status: number | 'redirect' = 204;
  /** When set, decides the answer to each verified request instead of `status` (it may take its time). */
  respond?: (received: ReceivedWebhook) => number | Promise<number>;
  redirectTo = '';
  secret = '';
  /**
   * Secrets still accepted after a rotation, as a real receiver does while deliveries signed
   * before the rotation may still be in flight; each delivery records which one verified it.
   */
  previousSecrets: string[] = [];
  private server?: Server;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async start(): Promise<this> {
    const Webhook = await standardWebhook();
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (this.secret === '') {
          this.beforeSecret.push(req.headers);
          res.writeHead(503).end();
          return;
        }
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        const verifies = (secret: string) => {
          try {
            new Webhook(secret).verify(body, headers);
            return null;
          } catch (err) {
            return (err as Error).message;
          }
        };
        const error = verifies(this.secret);
        const previous = error !== null && this.previousSecrets.some((secret) => verifies(secret) === null);
        if (error !== null && !previous) {
          this.rejected.push({ headers: req.headers, error });
          res.writeHead(401).end();
          return;
        }
        const received: ReceivedWebhook = {
          verifiedWith: previous ? 'previous' : 'current',
          id: headers['webhook-id'],
          timestamp: headers['webhook-timestamp'],
          body,
          payload: JSON.parse(body) as ReceivedWebhook['payload'],
          headers: req.headers,
        };
        this.received.push(received);
        if (this.respond) {
          void Promise.resolve(this.respond(received)).then((status) => res.writeHead(status).end('ok'));
          return;
        }
        if (this.status === 'redirect') res.writeHead(302, { location: this.redirectTo }).end();
        else res.writeHead(this.status).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Event ids of the deliveries received (data.id), in arrival order. */
  eventIds(): string[] {
    return this.received.map((r) => String(r.payload.data.id));
  }
}
