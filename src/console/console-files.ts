import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** console/dist beside dist/ or src/ (the Docker image copies it next to dist/). */
export const CONSOLE_DIST = join(__dirname, '..', '..', 'console', 'dist');

/**
 * The console's pages: scripts, styles and images from this origin only, no inline script or style,
 * API calls to this origin only, never framed.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface ConsoleFile {
  body: Buffer;
  /** gzip of the body, when it is worth sending. */
  gzip?: Buffer;
  type: string;
  /** Hashed file names under assets/ never change: cached for a year. */
  immutable: boolean;
}

/**
 * The built console read once at boot, keyed by path under /console/ ('' is index.html).
 * Undefined when the console is not built.
 */
export function loadConsoleFiles(dir = CONSOLE_DIST): Map<string, ConsoleFile> | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const files = new Map<string, ConsoleFile>();
  const walk = (path: string): void => {
    for (const entry of readdirSync(path)) {
      const full = join(path, entry);
      if (statSync(full).isDirectory()) {
        walk(full);
        continue;
      }
      const name = relative(dir, full).split(sep).join('/');
      if (name === '.build-stamp') continue;
      const body = readFileSync(full);
      const type = TYPES[extname(name)] ?? 'application/octet-stream';
      const compressible = /^(text\/|image\/svg|application\/json)/.test(type) && body.length > 1024;
      files.set(name, { body, gzip: compressible ? gzipSync(body, { level: 9 }) : undefined, type, immutable: name.startsWith('assets/') });
    }
  };
  walk(dir);
  return files;
}

/**
 * Which file answers a path under /console/: an existing file, else index.html for the
 * single-page app's own routes (deep links). A missing asset, or a path that names a file
 * (has an extension), is a 404 rather than the app.
 */
export function resolveConsolePath(files: ReadonlyMap<string, ConsoleFile>, path: string): ConsoleFile | undefined {
  const name = path.replace(/^\/+/, '');
  const file = files.get(name);
  if (file) return file;
  if (name.startsWith('assets/') || /\.[a-z0-9]+$/i.test(name)) return undefined;
  return files.get('index.html');
}
