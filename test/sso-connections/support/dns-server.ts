import DNS from 'dns2';

const { Packet } = DNS;
// dns2's type declarations leave out the response codes (packet.js defines them, RFC 1035 §4.1.1).
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 };

/** A zone the test edits: TXT records per name, and names whose lookups fail. */
export interface TestDnsServer {
  /** `ip:port`, for SSO_DNS_SERVERS. */
  address: string;
  /** Publishes a TXT record (each string one character string of the record); returns it for removal. */
  publishTxt(name: string, ...strings: string[]): void;
  /** Answers SERVFAIL for this name from now on (a broken authoritative server). */
  failFor(name: string): void;
  close(): Promise<void>;
}

/**
 * A real DNS server on loopback (dns2, UDP): the service's resolver asks it exactly as it asks the
 * Internet's. Unknown names answer NXDOMAIN; a known name without TXT records answers NODATA.
 */
export async function startDnsServer(): Promise<TestDnsServer> {
  const txt = new Map<string, string[][]>();
  const failing = new Set<string>();
  const server = DNS.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question.name.toLowerCase();
      if (failing.has(name)) {
        response.header.rcode = RCODE.SERVFAIL;
      } else if (!txt.has(name)) {
        response.header.rcode = RCODE.NXDOMAIN;
      } else if (question.type === Packet.TYPE.TXT) {
        // A plain record object is what Packet encodes (the declared type asks for a Resource instance).
        const record = (data: string[]) =>
          ({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data }) as DNS.Packet.Resource;
        response.answers.push(...txt.get(name)!.map(record));
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return {
    address: `127.0.0.1:${addresses.udp!.port}`,
    publishTxt: (name, ...strings) => txt.set(name.toLowerCase(), [...(txt.get(name.toLowerCase()) ?? []), strings]),
    failFor: (name) => failing.add(name.toLowerCase()),
    close: () => server.close(),
  };
}
