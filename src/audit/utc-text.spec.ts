import { utcTextToIsoMicros } from './audit.repository';

describe('utcTextToIsoMicros', () => {
  it.each([
    ['2026-11-22 00:26:46.123456', '2026-11-22T00:26:46.123456Z'],
    ['2026-11-22 00:26:46.1234', '2026-11-22T00:26:46.123400Z'],
    ['2026-11-22 00:26:46.5', '2026-11-22T00:26:46.500000Z'],
    ['2026-11-22 00:26:46', '2026-11-22T00:26:46.000000Z'],
  ])('renders %s as %s', (text, iso) => {
    expect(utcTextToIsoMicros(text)).toBe(iso);
  });
});
