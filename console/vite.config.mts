import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const api = process.env.CONSOLE_API ?? 'http://127.0.0.1:3000';

/**
 * The developer console, built from the repository root (`npm run build` or `npm start` when stale)
 * into console/dist, which the service serves at /console/. No React plugin: esbuild compiles the JSX.
 * `npx vite --config console/vite.config.mts` serves it with hot reload, proxying the API to CONSOLE_API.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  publicDir: 'public',
  esbuild: { jsx: 'automatic' },
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Nothing inlined as data: URLs: the console's Content-Security-Policy allows files of this origin only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: {
    proxy: Object.fromEntries(['/developer', '/e/v1', '/saml', '/scim', '/health'].map((path) => [path, api])),
  },
});
