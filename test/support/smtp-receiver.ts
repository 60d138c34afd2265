import { AddressInfo } from 'node:net';
import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  raw: string;
  parsed: ParsedMail;
}

/**
 * An in-process SMTP server for e2e tests: a real SMTP conversation, no mocks.
 * `stop()` then `start()` again keeps the port, so a test can simulate an outage.
 */
export class SmtpReceiver {
  readonly messages: ReceivedMail[] = [];
  private server: SMTPServer | null = null;
  private waiters: Array<() => void> = [];
  private portNumber = 0;

  get port(): number {
    return this.portNumber;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.portNumber}`;
  }

  /** Listen on the given port (0: a random free one on the first start, the same one after). */
  async start(port = this.portNumber): Promise<this> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 200,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw)
            .then((parsed) => {
              this.messages.push({
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : null,
                raw,
                parsed,
              });
              this.notify();
              callback();
            })
            .catch((err: Error) => callback(err));
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.portNumber = (server.server.address() as AddressInfo).port;
    return this;
  }

  /** Stop listening and drop open connections, so clients see the server as down. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get running(): boolean {
    return this.server !== null;
  }

  messagesTo(address: string): ReceivedMail[] {
    const wanted = address.toLowerCase();
    return this.messages.filter((m) => m.to.includes(wanted));
  }

  /** Resolve with the `nth` (1-based) message to the address, or fail after timeoutMs. */
  async waitFor(address: string, options: { nth?: number; timeoutMs?: number } = {}): Promise<ReceivedMail> {
    const nth = options.nth ?? 1;
    const deadline = Date.now() + (options.timeoutMs ?? 10_000);
    for (;;) {
      const found = this.messagesTo(address);
      if (found.length >= nth) return found[nth - 1];
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`no message #${nth} to ${address} within ${options.timeoutMs ?? 10_000} ms (got ${found.length})`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(left, 200));
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.push(done);
      });
    }
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((w) => w());
  }
}

/** The 6-digit code in a received message (verification or reset mail). */
export function codeIn(mail: ReceivedMail): string {
  const match = /\b(\d{6})\b/.exec(mail.subject) ?? /\b(\d{6})\b/.exec(mail.text);
  if (!match) throw new Error(`no 6-digit code in message "${mail.subject}"`);
  return match[1];
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  return new SmtpReceiver().start(0);
}
