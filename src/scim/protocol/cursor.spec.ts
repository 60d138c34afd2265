import { decodeCursor, encodeCursor, positionFor } from './cursor';

describe('SCIM cursors (RFC 9865)', () => {
  const position = { kind: 'u' as const, createdUs: '1795686466223123', id: '3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11' };

  it('round-trips a position and starts on the empty cursor', () => {
    expect(decodeCursor(encodeCursor(position))).toEqual({ start: false, ...position });
    expect(decodeCursor('')).toEqual({ start: true });
    expect(encodeCursor(position)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['not base64url', 'a+b/c='],
    ['an unknown kind', Buffer.from(`x:1.${position.id}`).toString('base64url')],
    ['a non-numeric time', Buffer.from(`u:12a.${position.id}`).toString('base64url')],
    ['a malformed id', Buffer.from('u:1.3f0c6a52').toString('base64url')],
    ['an over-long value', 'A'.repeat(201)],
  ])('refuses %s with invalidCursor', (_label, value) => {
    expect(() => decodeCursor(value)).toThrow(expect.objectContaining({ scimType: 'invalidCursor' }));
  });

  it('refuses a cursor of the other list', () => {
    expect(() => positionFor({ start: false, ...position }, 'g')).toThrow(expect.objectContaining({ scimType: 'invalidCursor' }));
    expect(positionFor({ start: true }, 'g')).toBeNull();
  });
});
