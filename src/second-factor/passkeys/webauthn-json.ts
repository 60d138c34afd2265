import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { DomainError } from '../../common/errors';
import { END_USER_ERRORS } from '../../end-user-directory/end-users.errors';

/**
 * The credential JSON a browser sends back (WebAuthn Level 3 `toJSON()`, as @simplewebauthn/browser
 * builds it), checked for shape and size before any of it reaches the verifier or SQL. The
 * cryptographic checks are the library's.
 */
const B64URL = /^[A-Za-z0-9_-]*$/;
const MAX_ID = 1024;
const MAX_BLOB = 16 * 1024;

const invalid = (why: string) => new DomainError(END_USER_ERRORS.invalid_passkey_response, `The passkey response is not usable: ${why}`);

function b64url(value: unknown, field: string, max: number, optional = false): string | undefined {
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > max || !B64URL.test(value)) {
    throw invalid(`${field} must be base64url`);
  }
  return value;
}

function record(value: unknown, field: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid(`${field} must be an object`);
  return value as Record<string, unknown>;
}

function common(value: unknown): { root: Record<string, unknown>; response: Record<string, unknown>; id: string } {
  const root = record(value, 'the credential');
  const id = b64url(root.id, 'id', MAX_ID)!;
  if (root.rawId !== id) throw invalid('rawId must equal id');
  if (root.type !== 'public-key') throw invalid("type must be 'public-key'");
  return { root, response: record(root.response, 'response'), id };
}

const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

export function registrationResponse(value: unknown): RegistrationResponseJSON {
  const { root, response, id } = common(value);
  const transports = response.transports;
  if (transports !== undefined && (!Array.isArray(transports) || transports.length > 8 || !transports.every((t) => TRANSPORTS.has(t)))) {
    throw invalid('response.transports must list known transports');
  }
  return {
    id,
    rawId: id,
    type: 'public-key',
    clientExtensionResults: {},
    authenticatorAttachment: root.authenticatorAttachment === 'platform' ? 'platform' : undefined,
    response: {
      clientDataJSON: b64url(response.clientDataJSON, 'response.clientDataJSON', MAX_BLOB)!,
      attestationObject: b64url(response.attestationObject, 'response.attestationObject', MAX_BLOB)!,
      transports: transports as RegistrationResponseJSON['response']['transports'],
    },
  };
}

export function authenticationResponse(value: unknown): AuthenticationResponseJSON {
  const { response, id } = common(value);
  return {
    id,
    rawId: id,
    type: 'public-key',
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64url(response.clientDataJSON, 'response.clientDataJSON', MAX_BLOB)!,
      authenticatorData: b64url(response.authenticatorData, 'response.authenticatorData', MAX_BLOB)!,
      signature: b64url(response.signature, 'response.signature', MAX_BLOB)!,
      userHandle: b64url(response.userHandle, 'response.userHandle', MAX_ID, true),
    },
  };
}

/** A JSON text from a hosted form field (the page's script puts the credential there). */
export function parseJsonField(value: string | undefined): unknown {
  if (!value || value.length > 64 * 1024) throw invalid('missing');
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw invalid('not JSON');
  }
}

/** The challenge the browser signed, read from clientDataJSON to find the stored ceremony. */
export function signedChallenge(clientDataJSON: string): string {
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
  } catch {
    throw invalid('clientDataJSON is not JSON');
  }
  const challenge = (data as { challenge?: unknown } | null)?.challenge;
  if (typeof challenge !== 'string' || !B64URL.test(challenge) || challenge.length > 512) throw invalid('clientDataJSON has no challenge');
  return challenge;
}

/** The WebAuthn user handle of an account: its UUID's 16 bytes (no personal data, WebAuthn §14.6.1). */
export function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replace(/-/g, ''), 'hex'));
}

export function userIdOfHandle(handle: string): string | null {
  const hex = Buffer.from(handle, 'base64url').toString('hex');
  if (hex.length !== 32) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * RFC 8176 for a passkey (decision 0322): a device-bound credential is a hardware-secured key
 * (`hwk`); a synced one (backup-eligible, WebAuthn's multiDevice) lives in a software keychain (`swk`).
 */
export function keyAmr(deviceType: 'singleDevice' | 'multiDevice'): 'hwk' | 'swk' {
  return deviceType === 'singleDevice' ? 'hwk' : 'swk';
}
