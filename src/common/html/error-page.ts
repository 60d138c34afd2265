import { escapeHtml } from './escape';

/** A plain, self-contained error page for the browser-facing surfaces (SAML, hosted login). */
export function renderErrorPage(status: number, title: string, message: string, requestId?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f5f6f8;color:#1f2430;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:2rem 2.5rem;max-width:32rem}
h1{font-size:1.25rem;margin:0 0 .75rem}p{line-height:1.5;margin:.5rem 0}small{color:#6b7280}</style></head>
<body><main role="main"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>
<p><small>Error ${status}${requestId ? ` · request ${escapeHtml(requestId)}` : ''}</small></p></main></body></html>`;
}
