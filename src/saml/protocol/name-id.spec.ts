import { NameIdRule, ruleForPolicy } from './name-id';
import { NAME_ID_FORMAT } from './saml-urns';

const SP = 'https://sp.example.com/metadata';
const rule = (format: string, attribute: NameIdRule['attribute'] = 'email'): NameIdRule => ({ spEntityId: SP, format, attribute });
const { email, unspecified, persistent, transient } = NAME_ID_FORMAT;

describe('NameIDPolicy against the registration', () => {
  it('keeps the registered rule without a Format, with unspecified, or with the registered Format', () => {
    for (const registered of [rule(email), rule(persistent, 'id'), rule(transient, 'id'), rule(unspecified, 'id')]) {
      for (const policy of [undefined, {}, { format: unspecified }, { format: registered.format }, { spNameQualifier: SP }]) {
        expect(ruleForPolicy(registered, policy)).toBe(registered);
      }
    }
  });

  it('gives any SP a transient NameID when it asks for one', () => {
    for (const registered of [rule(email), rule(persistent, 'id'), rule(unspecified, 'id')]) {
      expect(ruleForPolicy(registered, { format: transient })).toEqual({ ...registered, format: transient });
    }
  });

  it('labels an unspecified email NameID as emailAddress on request, but never turns an id into one', () => {
    expect(ruleForPolicy(rule(unspecified, 'email'), { format: email })).toEqual(rule(email, 'email'));
    expect(ruleForPolicy(rule(unspecified, 'id'), { format: email })).toBeNull();
  });

  it('refuses what the registration does not give: persistent, email from persistent, unknown formats, other qualifiers', () => {
    expect(ruleForPolicy(rule(email), { format: persistent })).toBeNull();
    expect(ruleForPolicy(rule(transient, 'id'), { format: persistent })).toBeNull();
    expect(ruleForPolicy(rule(persistent, 'id'), { format: email })).toBeNull();
    expect(ruleForPolicy(rule(email), { format: 'urn:oasis:names:tc:SAML:2.0:nameid-format:kerberos' })).toBeNull();
    expect(ruleForPolicy(rule(email), { spNameQualifier: 'https://affiliation.example.com' })).toBeNull();
  });
});
