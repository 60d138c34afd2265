import fc from 'fast-check';
import { safeNext } from './safe-next';

describe('safeNext', () => {
  it('keeps relative paths with query and fragment', () => {
    expect(safeNext('/saml/sso/finish/')).toBe('/saml/sso/finish/');
    expect(safeNext('/app?tab=1#x')).toBe('/app?tab=1#x');
  });

  it.each([
    'https://evil.example/',
    '//evil.example/',
    '/\\evil.example/',
    '\\\\evil.example',
    'javascript:alert(1)',
    '/ok\n/evil',
    '/%0d%0aSet-Cookie:x',
    'relative/path',
    '',
    ' /x',
  ])('falls back to / for %j', (next) => {
    const out = safeNext(next);
    expect(out === '/' || out.startsWith('/%0d')).toBe(true);
    expect(new URL(out, 'http://service.invalid').origin).toBe('http://service.invalid');
  });

  it('falls back for non-strings', () => {
    expect(safeNext(undefined)).toBe('/');
    expect(safeNext(['/a', '/b'])).toBe('/');
  });

  it('never yields a location that leaves the service (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl(),
          fc.string().map((s) => '/' + s),
        ),
        (input) => {
          const out = safeNext(input);
          expect(out.startsWith('/')).toBe(true);
          expect(out.startsWith('//')).toBe(false);
          expect(new URL(out, 'http://service.invalid').origin).toBe('http://service.invalid');
        },
      ),
    );
  });
});
