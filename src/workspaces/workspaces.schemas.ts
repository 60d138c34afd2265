import { allRequiredSchema, id, str, time } from '../api-docs/response-schema';

export const WorkspaceSchema = allRequiredSchema('Workspace', {
  type: 'object',
  properties: {
    id,
    name: str('Acme production'),
    description: str('Directory sync for Acme'),
    database_count: { type: 'integer', example: 2 },
    member_count: { type: 'integer', example: 3 },
    created_at: time,
  },
});

export const WorkspaceMemberSchema = allRequiredSchema('WorkspaceMember', {
  type: 'object',
  properties: {
    developer_id: id,
    email: str('dev@example.com', { format: 'email' }),
    name: str('Grace Hopper'),
    role: { type: 'string', enum: ['owner', 'member'], example: 'member' },
    created_at: time,
  },
});
