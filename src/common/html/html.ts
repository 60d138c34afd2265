import { escapeHtml } from './escape';

/**
 * A tiny escaping template tag for server-rendered pages: every interpolated value is HTML-escaped
 * unless it is already a SafeHtml (the output of another `html` call or of `raw`).
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0];
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new SafeHtml(out);
}

/** Mark trusted, constant markup (never user input) as safe. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
