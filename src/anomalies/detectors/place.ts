/** Human names for messages: "Tokyo, Japan" rather than "JP". */
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

export function countryName(code: string | null): string | null {
  if (!code) return null;
  try {
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code; // not a region code Intl knows; show it as given
  }
}

export function describePlace(city: string | null, country: string | null): string {
  const parts = [city, countryName(country)].filter((p): p is string => !!p);
  return parts.length ? parts.join(', ') : 'an unknown location';
}
