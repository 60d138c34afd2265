import fc from 'fast-check';
import { ScimError } from '../scim.errors';
import { applyGroupPatch } from './apply-group';
import { applyUserPatch, UserState } from './apply-user';
import { normalizeGroupPatch, normalizeUserPatch } from './normalize';

const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const U1 = '2819c223-7f76-453a-919d-413861904646';
const U2 = '902c246b-6245-4190-8e05-00816be7344a';
const alice: UserState = { email: 'alice@example.com', firstName: 'Alice', lastName: 'Smith', isActive: true };

const patchUser = (operations: unknown[], current = alice) =>
  applyUserPatch(current, normalizeUserPatch({ schemas: [PATCH], Operations: operations }));
const patchGroup = (operations: unknown[]) => applyGroupPatch(normalizeGroupPatch({ schemas: [PATCH], Operations: operations }));

describe('user PATCH as clients send it', () => {
  it('deactivates with Entra\'s "Replace" and the string "False"', () => {
    expect(patchUser([{ op: 'Replace', path: 'active', value: 'False' }]).isActive).toBe(false);
  });

  it("deactivates with Okta's path-less value object", () => {
    expect(patchUser([{ op: 'replace', value: { active: false } }]).isActive).toBe(false);
  });

  it("updates the work email through Entra's value-filter path, lowercased", () => {
    const next = patchUser([
      { op: 'Replace', path: 'emails[type eq "work"].value', value: 'Alice.New@Example.com' },
      { op: 'Replace', path: 'name.familyName', value: 'Jones' },
    ]);
    expect(next).toEqual({ ...alice, email: 'alice.new@example.com', lastName: 'Jones' });
  });

  it('renames through userName alone', () => {
    expect(patchUser([{ op: 'replace', path: 'userName', value: 'ALICE2@example.com' }]).email).toBe('alice2@example.com');
  });

  it('lets the primary email win over userName in the same request', () => {
    const next = patchUser([
      { op: 'replace', path: 'userName', value: 'a@example.com' },
      {
        op: 'replace',
        path: 'emails',
        value: [
          { value: 'b@example.com', type: 'home' },
          { value: 'C@example.com', primary: 'True' },
        ],
      },
    ]);
    expect(next.email).toBe('c@example.com');
  });

  it('spreads path-less objects with dotted, nested and URN-prefixed keys', () => {
    const next = patchUser([
      {
        op: 'replace',
        value: {
          'name.givenName': 'Alicia',
          name: { familyName: 'S'.repeat(40) },
          'urn:ietf:params:scim:schemas:core:2.0:User:active': 'false',
          'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'R&D' },
          'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager': { value: U1 },
          title: 'CEO',
          id: U2,
          meta: { resourceType: 'User' },
          password: 'hunter2',
        },
      },
    ]);
    expect(next).toEqual({ email: 'alice@example.com', firstName: 'Alicia', lastName: 'S'.repeat(30), isActive: false });
  });

  it('ignores read-only and unstored attributes given by path', () => {
    const ops = [
      { op: 'replace', path: 'id', value: U2 },
      { op: 'replace', path: 'externalId', value: 'ext-1' },
      { op: 'add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber', value: '42' },
      { op: 'add', path: 'phoneNumbers[type eq "work"].value', value: '555' },
    ];
    expect(patchUser(ops)).toEqual(alice);
  });

  it('refuses what it would otherwise answer 200 for having done nothing', () => {
    const refused = (op: Record<string, unknown>, scimType: string) =>
      expect(() => patchUser([op])).toThrow(expect.objectContaining({ scimType }));
    refused({ op: 'add', path: 'emails[type eq "home"].value', value: 'home@example.com' }, 'noTarget');
    refused({ op: 'remove', path: 'emails[type eq "work"]' }, 'mutability');
    refused({ op: 'remove', path: 'active' }, 'mutability');
    refused({ op: 'replace', path: 'emails', value: [{ value: 'x@example.com', type: 'home' }] }, 'invalidValue');
    refused({ op: 'replace', path: 'emails[type eq "work"].type', value: 'home' }, 'invalidValue');
    expect(() => normalizeUserPatch({ schemas: [PATCH], Operations: [] })).toThrow(expect.objectContaining({ scimType: 'invalidSyntax' }));
  });

  it('refuses a userName that is not an email address unless a primary email is given', () => {
    expect(() => patchUser([{ op: 'replace', path: 'userName', value: 'jdoe' }])).toThrow(
      expect.objectContaining({ scimType: 'invalidValue' }),
    );
    const ops = [
      { op: 'replace', path: 'userName', value: 'jdoe' },
      { op: 'replace', path: 'emails', value: [{ value: 'j@example.com', primary: true }] },
    ];
    expect(patchUser(ops).email).toBe('j@example.com');
  });

  it('removes a name part and the whole name', () => {
    expect(patchUser([{ op: 'remove', path: 'name.givenName' }]).firstName).toBeNull();
    expect(patchUser([{ op: 'remove', path: 'name' }])).toMatchObject({ firstName: null, lastName: null });
  });

  it.each([
    [{ Operations: 'nope' }, 'invalidSyntax'],
    [{ Operations: [{ op: 'merge', path: 'active', value: true }] }, 'invalidSyntax'],
    [{ Operations: [{ op: 'replace', path: 'emails[type eq', value: 'x' }] }, 'invalidPath'],
    [{ Operations: [{ op: 'remove' }] }, 'noTarget'],
    [{ Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] }, 'invalidValue'],
    [{ Operations: [{ op: 'remove', path: 'userName' }] }, 'mutability'],
  ])('rejects %j with %s', (body, scimType) => {
    expect(() => applyUserPatch(alice, normalizeUserPatch(body))).toThrow(expect.objectContaining({ scimType }));
  });
});

describe('group PATCH as clients send it', () => {
  it('adds members the way Okta and Entra send them, once each', () => {
    expect(patchGroup([{ op: 'Add', path: 'members', value: [{ value: U1, display: 'a' }, { value: U1 }] }])).toEqual({
      members: [{ kind: 'add', userIds: [U1] }],
    });
  });

  it('refuses a members entry that names no user id with invalidValue instead of dropping it (decision 0213)', () => {
    expect(() => patchGroup([{ op: 'Add', path: 'members', value: [{ value: U1 }, { value: 'not-an-id' }] }])).toThrow(
      expect.objectContaining({ scimType: 'invalidValue', message: expect.stringContaining('members[1].value') }),
    );
  });

  it("removes only the listed members with Entra's legacy remove + value array", () => {
    expect(patchGroup([{ op: 'Remove', path: 'members', value: [{ value: U2 }] }]).members).toEqual([{ kind: 'remove', userIds: [U2] }]);
  });

  it("removes one member through Okta's value-filter path", () => {
    const step = patchGroup([{ op: 'remove', path: `members[value eq "${U1}"]` }]).members[0];
    expect(step).toMatchObject({ kind: 'removeWhere', filter: { type: 'compare', op: 'eq', value: U1 } });
  });

  it('renames with a path or with a path-less object that also carries the id', () => {
    expect(patchGroup([{ op: 'Replace', path: 'displayName', value: 'Eng' }])).toEqual({ displayName: 'Eng', members: [] });
    expect(patchGroup([{ op: 'replace', value: { id: U1, displayName: 'Eng 2' } }])).toEqual({ displayName: 'Eng 2', members: [] });
  });
  it('sets and clears externalId, and refuses add through a members value filter', () => {
    expect(patchGroup([{ op: 'add', path: 'externalId', value: 'Ext-1' }])).toEqual({ externalId: 'Ext-1', members: [] });
    expect(patchGroup([{ op: 'remove', path: 'externalId' }])).toEqual({ externalId: null, members: [] });
    expect(() => patchGroup([{ op: 'add', path: `members[value eq "${U1}"]`, value: [{ value: U2 }] }])).toThrow(
      expect.objectContaining({ scimType: 'invalidPath' }),
    );
  });

  it('keeps every step in order: replace, remove all', () => {
    expect(
      patchGroup([
        { op: 'replace', path: 'members', value: [{ value: U1 }] },
        { op: 'remove', path: 'members' },
      ]).members,
    ).toEqual([{ kind: 'replace', userIds: [U1] }, { kind: 'removeAll' }]);
  });
});

describe('PATCH on arbitrary JSON', () => {
  it('throws nothing but a ScimError', () => {
    const op = fc.record(
      {
        op: fc.oneof(fc.constantFrom('add', 'Replace', 'REMOVE'), fc.jsonValue()),
        path: fc.oneof(fc.string(), fc.jsonValue()),
        value: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(fc.jsonValue(), fc.record({ Operations: fc.array(op) }));
    fc.assert(
      fc.property(body, (b) => {
        for (const run of [() => applyUserPatch(alice, normalizeUserPatch(b)), () => applyGroupPatch(normalizeGroupPatch(b))]) {
          try {
            run();
          } catch (e) {
            expect(e).toBeInstanceOf(ScimError);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});
