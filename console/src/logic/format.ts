/** Sizes as people read them (1 KiB = 1024 bytes). */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes == null) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A timestamp of the API in the reader's locale, or a dash. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : time.toLocaleString();
}

/** Points of an SVG polyline for a series, scaled into width × height (max at the top). */
export function sparkline(values: readonly number[], width: number, height: number): string {
  if (values.length === 0) return '';
  const max = Math.max(...values, 1);
  const step = values.length === 1 ? 0 : width / (values.length - 1);
  return values.map((v, i) => `${round(i * step)},${round(height - (v / max) * height)}`).join(' ');
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Lines of a textarea as a list: trimmed, blank lines dropped. */
export function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}
