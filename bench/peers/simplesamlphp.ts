/**
 * Debian's SimpleSAMLphp as a SAML IdP peer for bench/saml-peers.ts: Apache 2 (prefork, mod_php with Debian's
 * php.ini and OPcache, Debian's MPM and keep-alive defaults, an access log) serving /usr/share/simplesamlphp,
 * configured at run time in a temp directory (SIMPLESAMLPHP_CONFIG_DIR): a hosted IdP with our signing key pair,
 * one test user (exampleauth:UserPass), PHP sessions in files (its default store), and the same SP as ours.
 * Nothing under /etc is read or written but Debian's MPM defaults, mime.types and php.ini.
 *
 * Not a dependency of the project (it is not run in CI): when it is missing, `missingSimpleSamlPhp()` says what to
 * install.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { treeCpuSeconds } from '../lib/proc';

export const SSP_WWW = '/usr/share/simplesamlphp/www';
const APACHE = '/usr/sbin/apache2';
const MODULES = '/usr/lib/apache2/modules';
export const APT_GET = 'apt-get install -y simplesamlphp apache2 libapache2-mod-php php-xml php-mbstring';

/** What is missing to run the peer, with the command that installs it; null when everything is there. */
export function missingSimpleSamlPhp(): string | null {
  const missing = [
    existsSync(SSP_WWW) ? null : 'simplesamlphp',
    existsSync(APACHE) ? null : 'apache2',
    phpModule() ? null : 'libapache2-mod-php',
    // The package does not pull in PHP's DOM extension, without which every SSO fails ("Class DOMDocument not found").
    phpExtension('dom') ? null : 'php-xml',
    phpExtension('mbstring') ? null : 'php-mbstring',
  ].filter((m): m is string => m !== null);
  if (missing.length === 0) return null;
  return `Debian's SimpleSAMLphp under Apache is not installed (missing: ${missing.join(', ')}). Install it with:\n  ${APT_GET}`;
}

/** Whether a shared PHP extension is installed (/usr/lib/php/<api>/<name>.so). */
function phpExtension(name: string): boolean {
  if (!existsSync('/usr/lib/php')) return false;
  return readdirSync('/usr/lib/php').some((api) => existsSync(join('/usr/lib/php', api, `${name}.so`)));
}

function phpModule(): string | null {
  if (!existsSync(MODULES)) return null;
  const found = readdirSync(MODULES).find((f) => /^libphp[\d.]*\.so$/.test(f));
  return found ? join(MODULES, found) : null;
}

/** The SP registered with the peer, as with our service. */
export interface PeerSp {
  entityId: string;
  acsUrl: string;
  nameIdFormat: string;
}

/** The test user of the IdP's exampleauth:UserPass source, with the attributes its assertions carry. */
export interface PeerUser {
  username: string;
  password: string;
  attributes: Record<string, string[]>;
}

export interface SimpleSamlPhp {
  baseUrl: string;
  /** The IdP's SSO endpoint path (HTTP-Redirect binding). */
  ssoPath: string;
  /** The IdP's entity id (its metadata URL). */
  entityId: string;
  /**
   * CPU seconds of Apache's process tree: the live processes and the children the parent has reaped (prefork ends
   * spare children between windows; their CPU must not vanish from the count).
   */
  cpuSeconds(): number;
  pid: number;
  dir: string;
  stop(): Promise<void>;
}

const php = (value: unknown): string => JSON.stringify(value).replace(/\$/g, '\\$');

/** Writes the configuration and starts Apache on `port` (loopback); resolves once the IdP's metadata answers. */
export async function startSimpleSamlPhp(opts: {
  port: number;
  keyPem: string;
  certPem: string;
  sp: PeerSp;
  user: PeerUser;
  logDir: string;
  /** 'assertion' (as ours answers an SP registered with its defaults), or 'both': SimpleSAMLphp's own default. */
  signs?: 'assertion' | 'both';
}): Promise<SimpleSamlPhp> {
  const module = phpModule();
  if (!module || !existsSync(SSP_WWW) || !existsSync(APACHE)) throw new Error(missingSimpleSamlPhp() ?? 'SimpleSAMLphp missing');
  const dir = mkdtempSync(join(tmpdir(), 'bench-simplesamlphp-'));
  const baseUrl = `http://127.0.0.1:${opts.port}`;
  for (const sub of ['config', 'metadata', 'cert', 'sessions', 'tmp', 'log', 'data', 'run', 'www']) mkdirSync(join(dir, sub));
  writeFileSync(join(dir, 'cert/idp.key'), opts.keyPem, { mode: 0o600 });
  writeFileSync(join(dir, 'cert/idp.crt'), opts.certPem);
  writeFileSync(
    join(dir, 'config/config.php'),
    `<?php
$config = [
    'baseurlpath' => ${php(`${baseUrl}/simplesaml/`)},
    'certdir' => ${php(`${dir}/cert/`)},
    'loggingdir' => ${php(`${dir}/log/`)},
    'datadir' => ${php(`${dir}/data/`)},
    'tempdir' => ${php(`${dir}/tmp`)},
    'metadatadir' => ${php(`${dir}/metadata/`)},
    'attributenamemapdir' => '/etc/simplesamlphp/attributemap/',
    'technicalcontact_name' => 'Bench',
    'technicalcontact_email' => 'bench@example.test',
    'secretsalt' => ${php(randomText())},
    'auth.adminpassword' => ${php(randomText())},
    'admin.protectindexpage' => true,
    'admin.protectmetadata' => false,
    'admin.checkforupdates' => false,
    'showerrors' => false,
    'errorreporting' => false,
    'production' => true,
    'logging.level' => SimpleSAML\\Logger::NOTICE,
    'logging.handler' => 'file',
    'logging.logfile' => 'simplesamlphp.log',
    'statistics.out' => [],
    'enable.saml20-idp' => true,
    'module.enable' => ['exampleauth' => true, 'core' => true, 'saml' => true],
    'store.type' => 'phpsession',
    'session.phpsession.savepath' => ${php(`${dir}/sessions`)},
    'session.duration' => 8 * 60 * 60,
    // Plain HTTP on loopback: a Secure cookie would not be set at all.
    'session.cookie.secure' => false,
    'session.cookie.samesite' => null,
    'language.cookie.secure' => false,
    'timezone' => 'UTC',
];
`,
  );
  writeFileSync(
    join(dir, 'config/authsources.php'),
    `<?php
$config = [
    'admin' => ['core:AdminPassword'],
    'bench-userpass' => ['exampleauth:UserPass', ${php(`${opts.user.username}:${opts.user.password}`)} => ${phpArray(opts.user.attributes)}],
];
`,
  );
  writeFileSync(
    join(dir, 'metadata/saml20-idp-hosted.php'),
    `<?php
$metadata['__DYNAMIC:1__'] = [
    'host' => '__DEFAULT__',
    'privatekey' => 'idp.key',
    'certificate' => 'idp.crt',
    'auth' => 'bench-userpass',
    'signature.algorithm' => 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    // As our IdP answers an SP registered with its defaults: the Assertion signed, the Response around it not
    // (--peer-signs=both: SimpleSAMLphp's own default, both signed).
    'saml20.sign.assertion' => true,
    'saml20.sign.response' => ${opts.signs === 'both' ? 'true' : 'false'},
];
`,
  );
  writeFileSync(
    join(dir, 'metadata/saml20-sp-remote.php'),
    `<?php
$metadata[${php(opts.sp.entityId)}] = [
    'AssertionConsumerService' => ${php(opts.sp.acsUrl)},
    'NameIDFormat' => ${php(opts.sp.nameIdFormat)},
    'simplesaml.nameidattribute' => 'email',
    'simplesaml.attributes' => true,
];
`,
  );
  writeFileSync(
    join(dir, 'httpd.conf'),
    `ServerRoot /etc/apache2
ServerName 127.0.0.1
Listen 127.0.0.1:${opts.port}
PidFile ${dir}/run/apache.pid
DefaultRuntimeDir ${dir}/run
ErrorLog ${dir}/log/error.log
LogLevel warn
LoadModule mpm_prefork_module ${MODULES}/mod_mpm_prefork.so
LoadModule authz_core_module ${MODULES}/mod_authz_core.so
LoadModule alias_module ${MODULES}/mod_alias.so
LoadModule env_module ${MODULES}/mod_env.so
LoadModule mime_module ${MODULES}/mod_mime.so
LoadModule dir_module ${MODULES}/mod_dir.so
LoadModule php_module ${module}
# Debian's defaults: prefork's spare servers and limits, apache2.conf's timeouts and keep-alive.
Include /etc/apache2/mods-available/mpm_prefork.conf
Timeout 300
KeepAlive On
MaxKeepAliveRequests 100
KeepAliveTimeout 5
${process.getuid?.() === 0 ? 'User www-data\nGroup www-data' : ''}
TypesConfig /etc/mime.types
LogFormat "%h %l %u %t \\"%r\\" %>s %O \\"%{Referer}i\\" \\"%{User-Agent}i\\"" combined
CustomLog ${dir}/log/access.log combined
DocumentRoot ${dir}/www
DirectoryIndex index.php index.html
<Directory />
    Require all denied
</Directory>
Alias /simplesaml ${SSP_WWW}
<Directory ${SSP_WWW}>
    Require all granted
</Directory>
SetEnv SIMPLESAMLPHP_CONFIG_DIR ${dir}/config
<FilesMatch ".+\\.php$">
    SetHandler application/x-httpd-php
</FilesMatch>
php_admin_value session.save_path ${dir}/sessions
`,
  );
  if (process.getuid?.() === 0) chownTree(dir, Number(execFileSync('id', ['-u', 'www-data'], { encoding: 'utf8' }).trim()));
  mkdirSync(opts.logDir, { recursive: true });
  const fd = openSync(join(opts.logDir, 'simplesamlphp-apache.log'), 'w');
  // A process group of its own: Apache's parent ends by signalling its whole group, which would otherwise be ours.
  const child: ChildProcess = spawn(APACHE, ['-f', join(dir, 'httpd.conf'), '-DFOREGROUND'], {
    env: { PATH: process.env.PATH ?? '', LANG: 'C' },
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  closeSync(fd);
  let exited = false;
  child.on('exit', () => (exited = true));
  process.on('exit', () => {
    if (exited) return;
    try {
      process.kill(-child.pid!, 'SIGKILL'); // the parent and the children it forked
    } catch {
      // gone
    }
  });
  const metadataUrl = `${baseUrl}/simplesaml/saml2/idp/metadata.php`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) throw new Error(`Apache exited before it was ready: ${tail(join(dir, 'log/error.log'))}`);
    if (Date.now() > deadline) throw new Error(`SimpleSAMLphp not ready at ${metadataUrl}: ${tail(join(dir, 'log/error.log'))}`);
    try {
      const res = await fetch(metadataUrl);
      const text = await res.text();
      if (res.ok) break;
      if (res.status !== 503 && res.status !== 502) throw new Error(`SimpleSAMLphp metadata answered ${res.status}: ${text.slice(0, 400)}`);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('SimpleSAMLphp')) throw err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const pid = child.pid!;
  return {
    baseUrl,
    ssoPath: '/simplesaml/saml2/idp/SSOService.php',
    entityId: metadataUrl,
    pid,
    dir,
    cpuSeconds: () => treeCpuSeconds(pid, { reaped: true }),
    stop: async () => {
      if (!exited) {
        const done = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await done;
        clearTimeout(killer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function chownTree(path: string, uid: number): void {
  chownSync(path, uid, uid);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) chownTree(child, uid);
    else chownSync(child, uid, uid);
  }
}

function phpArray(attributes: Record<string, string[]>): string {
  return `[${Object.entries(attributes)
    .map(([k, v]) => `${php(k)} => [${v.map(php).join(', ')}]`)
    .join(', ')}]`;
}

function randomText(): string {
  return randomBytes(24).toString('hex');
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-10).join('\n');
  } catch {
    return '(no log)';
  }
}
