import { GeoInfo } from './geo.types';

export interface IpinfoClientOptions {
  apiUrl: string;
  token: string;
  /** Spec D: the lookup gives up after 2.5 s. */
  timeoutMs: number;
}

export type LookupOutcome = { ok: true; info: GeoInfo } | { ok: false; reason: string };

/**
 * An ipinfo-style provider: GET {apiUrl}/{ip}?token={token} answering JSON with `country`,
 * `city` and `loc` ("lat,lon") (the provider's documented fields). Never throws: timeouts, HTTP errors and garbage
 * bodies come back as { ok: false } so the caller can carry on without geo data.
 */
export class IpinfoClient {
  constructor(private readonly options: IpinfoClientOptions) {}

  async lookup(ip: string): Promise<LookupOutcome> {
    const url = `${this.options.apiUrl.replace(/\/+$/, '')}/${encodeURIComponent(ip)}?token=${encodeURIComponent(this.options.token)}`;
    try {
      // The signal covers the body read too, so a provider that sends headers then stalls still times out.
      const res = await fetch(url, {
        signal: AbortSignal.timeout(this.options.timeoutMs),
        headers: { accept: 'application/json' },
      });
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        return { ok: false, reason: `provider answered HTTP ${res.status}` };
      }
      return { ok: true, info: parseIpinfo(await res.json()) };
    } catch (error) {
      const name = (error as { name?: string })?.name;
      if (name === 'TimeoutError' || name === 'AbortError') return { ok: false, reason: 'timeout' };
      return { ok: false, reason: error instanceof Error ? error.message : 'lookup failed' };
    }
  }
}

const COUNTRY = /^[A-Za-z]{2}$/;

/** Reads the fields we use from an ipinfo answer, dropping anything malformed. Pure; never throws. */
export function parseIpinfo(body: unknown): GeoInfo {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const country = typeof b.country === 'string' && COUNTRY.test(b.country.trim()) ? b.country.trim().toUpperCase() : null;
  const city = typeof b.city === 'string' && b.city.trim() ? b.city.trim().slice(0, 120) : null;
  const [latitude, longitude] = parseLoc(b.loc);
  return { country, city, latitude, longitude };
}

function parseLoc(loc: unknown): [number | null, number | null] {
  if (typeof loc !== 'string') return [null, null];
  const parts = loc.split(',');
  if (parts.length !== 2) return [null, null];
  const [lat, lon] = parts.map((p) => (p.trim() === '' ? NaN : Number(p)));
  const valid = Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
  return valid ? [lat, lon] : [null, null];
}
