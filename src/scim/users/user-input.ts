import { USER_SCHEMA } from '../filter/attributes';
import { checkSchemas, getCI, isObject } from '../patch/normalize';
import { checkEmailsWithoutPrimary, primaryEmail, toBoolean, toEmail, toName, toStoredEmail } from '../patch/values';
import { ScimError } from '../scim.errors';

/** What POST and PUT store from a SCIM User body. */
export interface UserInput {
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** Absent means: POST creates active, PUT keeps the current value. */
  isActive?: boolean;
}

/**
 * Reads a SCIM User body. userName is required; the emails entry flagged primary
 * overrides it as the stored email (spec); emails without a primary entry may only repeat it. Whichever is stored must be an email address
 * (decision 0112). Attribute names are case-insensitive;
 * password, externalId and every unknown or extension attribute are ignored.
 */
export function readUserInput(body: unknown): UserInput {
  if (!isObject(body)) throw new ScimError('invalidSyntax', 'the body must be a SCIM User JSON object');
  checkSchemas(body, USER_SCHEMA);
  const userName = getCI(body, 'userName');
  if (userName === undefined || userName === null) throw new ScimError('invalidValue', 'userName is required');
  const emails = getCI(body, 'emails');
  const primary = primaryEmail(emails);
  const email =
    primary !== undefined
      ? toStoredEmail(primary, 'emails[primary eq true].value')
      : toStoredEmail(toEmail(userName, 'userName'), 'userName');
  if (primary === undefined && emails !== undefined && emails !== null) checkEmailsWithoutPrimary(emails, email);
  const name = getCI(body, 'name');
  if (name !== undefined && name !== null && !isObject(name)) throw new ScimError('invalidValue', 'name must be an object');
  const input: UserInput = {
    email,
    firstName: isObject(name) ? toName(getCI(name, 'givenName'), 'name.givenName') : null,
    lastName: isObject(name) ? toName(getCI(name, 'familyName'), 'name.familyName') : null,
  };
  const active = getCI(body, 'active');
  if (active !== undefined && active !== null) input.isActive = toBoolean(active, 'active');
  return input;
}
