import { id, namedSchema, str, time } from '../api-docs/response-schema';

export const WorkspaceSchema = namedSchema('Workspace', {
  type: 'object',
  required: ['id', 'name', 'description', 'database_count', 'member_count', 'created_at'],
  properties: {
    id,
    name: str('Acme production'),
    description: str('Directory sync for Acme'),
    database_count: { type: 'integer', example: 2 },
    member_count: { type: 'integer', example: 3 },
    created_at: time,
  },
});

export const WorkspaceMemberSchema = namedSchema('WorkspaceMember', {
  type: 'object',
  required: ['developer_id', 'email', 'name', 'role', 'created_at'],
  properties: {
    developer_id: id,
    email: str('dev@example.com', { format: 'email' }),
    name: str('Grace Hopper'),
    role: { type: 'string', enum: ['owner', 'member'], example: 'member' },
    created_at: time,
  },
});
