import { namedSchema, ref } from '../../api-docs/response-schema';
import { ScimGroupPartialSchema, ScimGroupSchema } from '../groups/group.schemas';
import { scimListResponse } from '../protocol/protocol.schemas';
import { ScimUserPartialSchema, ScimUserSchema, USER_EXAMPLE } from '../users/user.schemas';

export const ScimResourceListSchema = namedSchema('ScimResourceList', {
  description: 'ListResponse of a search across Users and Groups: each resource says its kind in meta.resourceType.',
  ...scimListResponse({
    type: 'array',
    items: { anyOf: [ref(ScimUserSchema), ref(ScimGroupSchema), ref(ScimUserPartialSchema), ref(ScimGroupPartialSchema)] },
    example: [USER_EXAMPLE],
  }),
});
