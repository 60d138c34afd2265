import { allRequiredSchema, id, OPAQUE_NEXT_CURSOR, pageSchema, str, time } from '../../api-docs/response-schema';

export const DirectoryGroupSchema = allRequiredSchema('DirectoryGroup', {
  type: 'object',
  properties: {
    id,
    display_name: str('Engineering'),
    external_id: { type: 'string', nullable: true, example: '00g1emaKYZTWRYYRRTSK' },
    created_at: time,
  },
});

export const DirectoryGroupWithMembersSchema = allRequiredSchema('DirectoryGroupWithMembers', {
  type: 'object',
  properties: {
    ...DirectoryGroupSchema.schema.properties,
    member_count: { type: 'integer', example: 2 },
    members: {
      type: 'array',
      description: 'The first 100 members, in the order they joined; member_count counts them all.',
      items: {
        type: 'object',
        required: ['id', 'email', 'name'],
        properties: { id, email: str('ada@acme.test'), name: str('Ada Lovelace') },
      },
    },
  },
});

export const DirectoryGroupPageSchema = pageSchema('DirectoryGroupPage', DirectoryGroupWithMembersSchema, OPAQUE_NEXT_CURSOR);
