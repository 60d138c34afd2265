import { GeoInfo } from './geo.types';

const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Reads a cached entry back; anything unreadable (old format, corruption) is a miss. */
export function decodeGeo(raw: unknown): GeoInfo | undefined {
  try {
    const v = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown> | null;
    if (!v || typeof v !== 'object') return undefined;
    return { country: str(v.country), city: str(v.city), latitude: num(v.latitude), longitude: num(v.longitude) };
  } catch {
    return undefined;
  }
}
