import { isUniqueViolation } from './db-errors';

describe('isUniqueViolation', () => {
  it('recognises 23505 on the error or on TypeORM’s driverError, optionally on one constraint', () => {
    expect(isUniqueViolation({ code: '23505' })).toBe(true);
    expect(isUniqueViolation({ driverError: { code: '23505', constraint: 'k' } }, 'k')).toBe(true);
    expect(isUniqueViolation({ code: '23505', constraint: 'other' }, 'k')).toBe(false);
    expect(isUniqueViolation({ code: '23503' })).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });
});
