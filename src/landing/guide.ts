import MarkdownIt from 'markdown-it';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { html, raw } from '../common/html/html';
import { publicPage } from './landing.view';

/** Where a doc's files are served: `/guide/quickstart`, `/guide/decisions/0050-…`, `/guide/images/x.png`. */
export const GUIDE_PATH = '/guide';
const IMAGE = /^images\/[a-z0-9][a-z0-9._-]*\.(png|svg|jpe?g)$/i;

const GUIDE_STYLES =
  'body{display:block;padding:32px 16px}main{max-width:860px;margin:0 auto}' +
  '.card{padding:32px 40px}h1{margin-bottom:16px}h2{font-size:20px;margin:28px 0 8px}h3{font-size:17px;margin:20px 0 6px}' +
  'pre{background:var(--bg);border:1px solid var(--border);border-radius:10px;padding:12px 14px;overflow-x:auto;font-size:13px;line-height:1.45}' +
  'code{font-family:"SFMono-Regular",Consolas,monospace;font-size:.9em}img{max-width:100%;border:1px solid var(--border);border-radius:10px}' +
  'table{border-collapse:collapse;margin:12px 0;font-size:14px}th,td{border:1px solid var(--border);padding:6px 10px;text-align:left;vertical-align:top}' +
  'nav.crumbs{font-size:14px;margin-bottom:16px}';

/**
 * The repository's docs/ as HTML pages (decision 0051): markdown-it with raw HTML off, every relative
 * link rewritten to the page or image that serves it, and a link to anything this service does not
 * serve (source files, the README) kept as its text, so no page has a dead link or a missing image.
 * Absent docs/ (the production image ships none): nothing is served.
 */
export class Guide {
  private readonly pages = new Map<string, string>();
  private readonly rendered = new Map<string, string>();
  private readonly images = new Set<string>();
  private readonly md = new MarkdownIt({ html: false, linkify: false });

  constructor(private readonly root: string) {
    if (existsSync(root)) this.scan('');
  }

  /** The doc's name as served (`quickstart`, `decisions/0050-…`), if docs/ has it. */
  has(name: string): boolean {
    return this.pages.has(name);
  }

  /** The page for a served name, or undefined. */
  page(name: string): string | undefined {
    const file = this.pages.get(name);
    if (!file) return undefined;
    let out = this.rendered.get(name);
    if (out === undefined) {
      out = this.render(`${name}.md`, readFileSync(file, 'utf8'));
      this.rendered.set(name, out);
    }
    return out;
  }

  /** The image file for `images/<file>`, if docs/images has it. */
  imageFile(name: string): string | undefined {
    return this.images.has(name) ? join(this.root, name) : undefined;
  }

  private scan(dir: string): void {
    for (const entry of readdirSync(join(this.root, dir))) {
      const rel = dir ? `${dir}/${entry}` : entry;
      if (statSync(join(this.root, rel)).isDirectory()) this.scan(rel);
      else if (rel.endsWith('.md')) this.pages.set(rel.slice(0, -3), join(this.root, rel));
      else if (IMAGE.test(rel)) this.images.add(rel);
    }
  }

  /** Where a relative link of `fromDoc` leads on this service, or null when nothing here serves it. */
  private target(fromDoc: string, href: string): string | null {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) return href;
    const [path, hash] = href.split('#', 2);
    let resolved: string;
    try {
      resolved = posix.normalize(posix.join(posix.dirname(fromDoc), decodeURI(path)));
    } catch {
      return null;
    }
    if (resolved.startsWith('../') || resolved.startsWith('/')) return null;
    const anchor = hash === undefined ? '' : `#${hash}`;
    if (resolved.endsWith('.md') && this.pages.has(resolved.slice(0, -3))) return `${GUIDE_PATH}/${resolved.slice(0, -3)}${anchor}`;
    if (this.images.has(resolved)) return `${GUIDE_PATH}/${resolved}`;
    return null;
  }

  private render(doc: string, markdown: string): string {
    const env = {};
    const tokens = this.md.parse(markdown, env);
    for (const block of tokens) if (block.type === 'inline' && block.children) block.children = this.rewrite(doc, block.children);
    const body = this.md.renderer.render(tokens, this.md.options, env);
    const title = /^# (.+)$/m.exec(markdown)?.[1] ?? doc;
    return publicPage(
      title,
      GUIDE_STYLES,
      html`<nav class="crumbs"><a href="/">Identity service</a> · <a href="${GUIDE_PATH}/quickstart">Quickstart</a></nav>
        <div class="card">${raw(body)}</div>`,
    );
  }

  /** Rewrites link and image targets; drops the link (keeps its text) where nothing serves the target. */
  private rewrite(doc: string, children: MarkdownIt.Token[]): MarkdownIt.Token[] {
    const out: MarkdownIt.Token[] = [];
    const dropped: boolean[] = [];
    for (const token of children) {
      if (token.type === 'link_open') {
        const to = this.target(doc, String(token.attrGet('href') ?? ''));
        dropped.push(to === null);
        if (to === null) continue;
        token.attrSet('href', to);
      } else if (token.type === 'link_close') {
        if (dropped.pop()) continue;
      } else if (token.type === 'image') {
        const to = this.target(doc, String(token.attrGet('src') ?? ''));
        if (to === null) continue;
        token.attrSet('src', to);
      }
      out.push(token);
    }
    return out;
  }
}
