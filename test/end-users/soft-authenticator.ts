import { createHash, generateKeyPairSync, KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A software WebAuthn authenticator for API tests (the browser tests use Chromium's virtual
 * authenticator instead): ES256 keys, "none" attestation, a sign counter, discoverable
 * credentials with a user handle. It builds what a browser's `toJSON()` would send, so the
 * service's verifier (@simplewebauthn/server) checks real signatures.
 */

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
}

/** The few CBOR types attestation objects and COSE keys use (RFC 8949 §3.1). */
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const b64url = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  cose: Buffer;
  userHandle: string;
  counter: number;
}

type Options = { challenge: string; rp?: { id?: string }; rpId?: string; user?: { id: string } };

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(
    private readonly origin: string,
    /** Flags: user verified; backup-eligible (a synced passkey, WebAuthn's multiDevice). */
    private readonly opts: { userVerified?: boolean; synced?: boolean; keepsCounter?: boolean } = {},
  ) {}

  private flags(attested: boolean): number {
    let f = 0x01; // UP
    if (this.opts.userVerified !== false) f |= 0x04;
    if (this.opts.synced) f |= 0x08 | 0x10; // BE, BS
    if (attested) f |= 0x40;
    return f;
  }

  private authData(rpId: string, counter: number, attested?: Credential): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const parts: Buffer[] = [sha256(rpId), Buffer.from([this.flags(Boolean(attested))]), count];
    if (attested) {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(attested.id.length);
      parts.push(Buffer.alloc(16), len, attested.id, attested.cose);
    }
    return Buffer.concat(parts);
  }

  /** navigator.credentials.create() for these creation options, as RegistrationResponseJSON. */
  register(options: Options, tamper: { origin?: string } = {}): Record<string, unknown> {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const credential: Credential = { id: randomBytes(16), privateKey, cose, userHandle: options.user!.id, counter: 0 };
    this.credentials.push(credential);
    const clientData = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: tamper.origin ?? this.origin,
      crossOrigin: false,
    });
    const attestation = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', this.authData(options.rp!.id!, 0, credential)],
      ]),
    );
    const id = b64url(credential.id);
    return {
      id,
      rawId: id,
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: { clientDataJSON: b64url(clientData), attestationObject: b64url(attestation), transports: ['internal'] },
    };
  }

  /** navigator.credentials.get() with a credential of this authenticator, as AuthenticationResponseJSON. */
  assert(options: Options, credential = this.credentials[0], tamper: { counter?: number } = {}): Record<string, unknown> {
    if (this.opts.keepsCounter !== false) credential.counter += 1;
    const counter = tamper.counter ?? (this.opts.keepsCounter === false ? 0 : credential.counter);
    const authData = this.authData(options.rpId!, counter);
    const clientData = JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: this.origin, crossOrigin: false });
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), credential.privateKey);
    const id = b64url(credential.id);
    return {
      id,
      rawId: id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
    };
  }
}
