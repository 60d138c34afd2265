import { html, raw, SafeHtml } from './html';
import { PAGE_STYLES } from './page-styles';

export const PRODUCT_NAME = 'Identity';

export interface LayoutOptions {
  title: string;
  /** Shown beside the logo mark: the application or workspace the user signs in to. */
  brand?: string | null;
  /** A wider card, for pages that show data (the development test SP). */
  wide?: boolean;
  /** A path of this service the page hands the browser on to at once (a refresh, which needs no JavaScript). */
  refreshTo?: string;
}

const WIDE_STYLES =
  'main{max-width:760px}h2{font-size:16px;margin:24px 0 8px}pre{overflow:auto;font-size:12px;line-height:1.45;background:var(--bg);border:1px solid var(--border);border-radius:10px;padding:12px}table{border-collapse:collapse;width:100%;font-size:14px;margin-bottom:16px}td,th{border-bottom:1px solid var(--border);padding:6px 8px;text-align:left;vertical-align:top;word-break:break-all}code{font-family:"SFMono-Regular",Consolas,monospace;font-size:13px}form+form{margin-top:8px}';

/** The shell of every hosted page: one card, a skip link, a landmark, no JavaScript. */
export function pageLayout(options: LayoutOptions, content: SafeHtml): string {
  const brand = options.brand?.trim() || PRODUCT_NAME;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <meta name="referrer" content="same-origin" />
        ${options.refreshTo ? html`<meta http-equiv="refresh" content="0;url=${options.refreshTo}" />` : ''}
        <title>${options.title} · ${brand}</title>
        <style>
          ${raw(options.wide ? PAGE_STYLES + WIDE_STYLES : PAGE_STYLES)}
        </style>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <main id="main">
          <div class="card">
            <div class="brand" aria-hidden="true">
              <div class="mark">${brand.charAt(0).toUpperCase()}</div>
              <div class="brand-name">${brand}</div>
            </div>
            ${content}
          </div>
          <p class="foot">Secured by ${PRODUCT_NAME}</p>
        </main>
      </body>
    </html> `.value;
}
