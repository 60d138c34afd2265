import { useMemo } from 'react';

const ALLOWED = new Set([
  'P',
  'BR',
  'B',
  'STRONG',
  'I',
  'EM',
  'U',
  'A',
  'UL',
  'OL',
  'LI',
  'H1',
  'H2',
  'H3',
  'H4',
  'DIV',
  'SPAN',
  'TABLE',
  'TBODY',
  'THEAD',
  'TR',
  'TD',
  'TH',
  'HR',
  'CODE',
  'PRE',
  'SMALL',
  'BLOCKQUOTE',
]);

/**
 * An HTML mail body shown in the page: parsed inertly, kept to text-formatting elements, every attribute
 * dropped but a plain http(s)/mailto href (no script, no inline style, no remote image, which the
 * console's CSP would refuse anyway).
 */
function sanitize(html: string): string {
  // Before parsing: drop style and script blocks and every attribute but href. Chrome applies the page's CSP
  // to DOMParser documents too, so a style attribute would be reported as a violation even in an inert copy.
  const stripped = html
    // The preview sits inside the page's outline: mail headings become bold paragraphs.
    .replace(/<h[1-6]\b[^>]*>/gi, '<p><strong>')
    .replace(/<\/h[1-6]\s*>/gi, '</strong></p>')
    .replace(/<(style|script|head|title)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<([a-zA-Z][a-zA-Z0-9]*)\b([^>]*)>/g, (_all, tag: string, attributes: string) => {
      const href = /\shref\s*=\s*("[^"]*"|'[^']*')/i.exec(attributes);
      return `<${tag}${href ? ` href=${href[1]}` : ''}>`;
    });
  const doc = new DOMParser().parseFromString(`<body>${stripped}</body>`, 'text/html');
  const clean = (node: Element) => {
    for (const child of [...node.children]) {
      if (!ALLOWED.has(child.tagName)) {
        if (child.tagName === 'IMG') {
          child.replaceWith(doc.createTextNode(`[image${child.getAttribute('alt') ? `: ${child.getAttribute('alt')}` : ''}]`));
        } else if (['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'TEMPLATE', 'HEAD', 'TITLE', 'META', 'LINK'].includes(child.tagName)) {
          child.remove();
        } else {
          clean(child);
          child.replaceWith(...child.childNodes);
        }
        continue;
      }
      for (const attr of [...child.attributes]) {
        const keep = attr.name === 'href' && /^(https?:|mailto:)/i.test(attr.value.trim());
        if (!keep) child.removeAttribute(attr.name);
      }
      if (child.tagName === 'A') child.setAttribute('rel', 'noreferrer');
      clean(child);
    }
  };
  clean(doc.body);
  return doc.body.innerHTML;
}

export function SafeHtml({ html, label }: { html: string; label: string }) {
  const clean = useMemo(() => sanitize(html), [html]);
  return <div className="preview" role="document" aria-label={label} dangerouslySetInnerHTML={{ __html: clean }} />;
}
