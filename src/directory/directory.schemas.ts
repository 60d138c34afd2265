import { allRequiredSchema, ref } from '../api-docs/response-schema';
import { DirectorySessionSchema, DirectoryUserSchema } from '../end-users/directory/directory.schemas';
import { MfaStatusSchema } from '../second-factor/mfa.schemas';
import { DirectoryGroupSchema } from '../scim/groups/group-directory.schemas';

export const DirectoryPersonSchema = allRequiredSchema('DirectoryPerson', {
  type: 'object',
  properties: {
    user: ref(DirectoryUserSchema),
    groups: { type: 'array', items: ref(DirectoryGroupSchema), description: 'The SCIM groups the person is a member of, by name.' },
    sessions: { type: 'array', items: ref(DirectorySessionSchema), description: 'Live sessions, most recently used first.' },
    factors: ref(MfaStatusSchema),
  },
});
