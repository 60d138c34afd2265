import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** What the stub answers for one IP: an ipinfo-style body, or a raw status and body. */
export type GeoStubAnswer = { country?: string; city?: string; loc?: string; [k: string]: unknown } | { status: number; body: string };

export interface GeoStubCall {
  ip: string;
  token: string | null;
  at: number;
}

/**
 * Local HTTP stand-in for the third-party ipinfo-style API (the only thing tests stub):
 * GET /{ip}?token=... answers what the test programmed for that IP (404 otherwise, like a
 * provider that does not know it); `hang(ms)` delays every answer; `calls` counts lookups.
 */
export class GeoStub {
  readonly calls: GeoStubCall[] = [];
  private readonly answers = new Map<string, GeoStubAnswer>();
  private hangMs = 0;
  private readonly pending = new Set<ServerResponse>();
  private server?: Server;
  url = '';

  static async start(): Promise<GeoStub> {
    const stub = new GeoStub();
    await stub.listen();
    return stub;
  }

  /** Programs the answer for `ip`. */
  answer(ip: string, answer: GeoStubAnswer): this {
    this.answers.set(ip, answer);
    return this;
  }

  /** Every request waits `ms` before its answer (0 turns hanging off). */
  hang(ms: number): this {
    this.hangMs = ms;
    return this;
  }

  callsFor(ip: string): number {
    return this.calls.filter((c) => c.ip === ip).length;
  }

  reset(): void {
    this.calls.length = 0;
    this.answers.clear();
    this.hangMs = 0;
  }

  async close(): Promise<void> {
    for (const res of this.pending) res.destroy();
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private async listen(): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://stub');
    const ip = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ''));
    this.calls.push({ ip, token: url.searchParams.get('token'), at: Date.now() });
    const reply = () => {
      this.pending.delete(res);
      if (res.destroyed) return;
      const a = this.answers.get(ip);
      if (a && 'status' in a && typeof a.status === 'number') {
        res.writeHead(a.status, { 'content-type': 'application/json' }).end(String(a.body));
      } else if (a) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ip, ...a }));
      } else {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unknown ip' }));
      }
    };
    this.pending.add(res);
    if (this.hangMs > 0) setTimeout(reply, this.hangMs).unref();
    else reply();
  }
}
