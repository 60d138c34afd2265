/**
 * Independent consumers of our SAML output, shared by unit and e2e tests:
 * node-saml as a real service provider, and xmlsec1 (libxmlsec) as a verifier.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CacheProvider, SAML, SamlConfig, ValidateInResponseTo } from '@node-saml/node-saml';

const run = promisify(execFile);

/** A cache that node-saml uses to remember the AuthnRequest ids it sent (InResponseTo checks). */
export function memoryCache(seed: string[] = []): CacheProvider & { ids: Map<string, string> } {
  const ids = new Map<string, string>(seed.map((id) => [id, new Date().toISOString()]));
  return {
    ids,
    saveAsync: async (key: string, value: string) => {
      ids.set(key, value);
      return { value, createdAt: Date.now() };
    },
    getAsync: async (key: string) => ids.get(key) ?? null,
    removeAsync: async (key: string | null) => {
      if (key === null) return null;
      const had = ids.get(key) ?? null;
      ids.delete(key);
      return had;
    },
  };
}

export interface TestSp {
  saml: SAML;
  cache: ReturnType<typeof memoryCache>;
  entityId: string;
  acsUrl: string;
}

/** A node-saml SP that insists on InResponseTo, the audience and a signature by idpCert. */
export function nodeSamlSp(opts: {
  entityId: string;
  acsUrl: string;
  idpSsoUrl: string;
  idpCert: string | string[];
  signedAssertion?: boolean;
  extra?: Partial<SamlConfig>;
}): TestSp {
  const cache = memoryCache();
  const signedAssertion = opts.signedAssertion ?? true;
  const saml = new SAML({
    callbackUrl: opts.acsUrl,
    entryPoint: opts.idpSsoUrl,
    issuer: opts.entityId,
    audience: opts.entityId,
    idpCert: opts.idpCert,
    validateInResponseTo: ValidateInResponseTo.always,
    cacheProvider: cache,
    wantAssertionsSigned: signedAssertion,
    wantAuthnResponseSigned: !signedAssertion,
    acceptedClockSkewMs: 0,
    ...opts.extra,
  });
  return { saml, cache, entityId: opts.entityId, acsUrl: opts.acsUrl };
}

/** Body of the base64 certificate wrapped back into PEM (what metadata publishes -> what tools read). */
export function certPemFromBase64(b64: string): string {
  return `-----BEGIN CERTIFICATE-----\n${b64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** The X509Certificate bodies published in an EntityDescriptor. */
export function certificatesInMetadata(metadataXml: string): string[] {
  return [...metadataXml.matchAll(/<(?:ds:)?X509Certificate>([^<]+)<\/(?:ds:)?X509Certificate>/g)].map((m) => m[1].replace(/\s+/g, ''));
}

/**
 * `xmlsec1 --verify` of a signed Response with only the given certificate.
 * `--id-attr` tells libxmlsec which attribute is the ID on each element type
 * (SAML's ID is not an xml:id and there is no DTD to declare it).
 */
export async function xmlsecVerify(xml: string, certPem: string, node: 'Assertion' | 'Response'): Promise<{ ok: boolean; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'xmlsec-'));
  try {
    writeFileSync(join(dir, 'msg.xml'), xml);
    writeFileSync(join(dir, 'cert.pem'), certPem);
    const ns = node === 'Assertion' ? 'urn:oasis:names:tc:SAML:2.0:assertion' : 'urn:oasis:names:tc:SAML:2.0:protocol';
    const args = [
      '--verify',
      '--pubkey-cert-pem',
      join(dir, 'cert.pem'),
      '--id-attr:ID',
      `${ns}:${node}`,
      '--node-xpath',
      `//*[local-name()='${node}']/*[local-name()='Signature']`,
      join(dir, 'msg.xml'),
    ];
    try {
      const { stdout, stderr } = await run('xmlsec1', args);
      return { ok: true, output: stdout + stderr };
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a Python SP is given: the IdP's metadata, its own identity, the request it sent and the Response. */
export interface PythonSpJob {
  metadata: string;
  spEntityId: string;
  acsUrl: string;
  requestId: string;
  samlResponse: string;
}

/** Runs one of the Python SP scripts beside this file with Debian's python3; its last stdout line is JSON. */
function runPythonSp<T>(script: string, job: PythonSpJob): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/python3', [join(__dirname, script)], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${script} exited ${code}: ${err.slice(-2000)}`));
      resolve(JSON.parse(out.trim().split('\n').pop()!) as T);
    });
    child.stdin.end(
      JSON.stringify({
        metadata: job.metadata,
        sp_entity_id: job.spEntityId,
        acs_url: job.acsUrl,
        request_id: job.requestId,
        saml_response: job.samlResponse,
      }),
    );
  });
}

/** pysaml2 (Debian's python3-pysaml2) as the SP: whether it accepts a Response, and the AuthnContextClassRef it reads. */
export function pysaml2Accepts(job: PythonSpJob): Promise<{ ok: boolean; name_id?: string; authn_class?: string | null; error?: string }> {
  return runPythonSp('pysaml2_sp.py', job);
}

/** python3-saml (Debian's python3-onelogin-saml2, strict mode) as the SP: whether it accepts a Response, and the classes it reads. */
export function oneloginAccepts(job: PythonSpJob): Promise<{ ok: boolean; name_id?: string; authn_classes?: string[]; error?: string }> {
  return runPythonSp('onelogin_sp.py', job);
}
