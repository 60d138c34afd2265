import type { components } from '../../../clients/typescript/openapi';

type DirectoryEvent = components['schemas']['DirectoryEvent'];

/** Every directory event type, in catalogue order (the filter's choices). */
export const DIRECTORY_EVENT_TYPES: readonly DirectoryEvent['type'][] = [
  'directory.user.created',
  'directory.user.updated',
  'directory.user.deactivated',
  'directory.user.reactivated',
  'directory.group.created',
  'directory.group.updated',
  'directory.group.deleted',
  'directory.group.user_added',
  'directory.group.user_removed',
];

/** Who or what an event is about, in words: a user's userName, a group's name, or "user in group" for a membership. */
export function eventSubject(event: Pick<DirectoryEvent, 'type' | 'data'>): string {
  const data = event.data as {
    userName?: unknown;
    displayName?: unknown;
    id?: unknown;
    user?: { userName?: unknown };
    group?: { displayName?: unknown };
  };
  if (data.user && data.group) return `${text(data.user.userName)} in ${text(data.group.displayName)}`;
  if (event.type.startsWith('directory.user.')) return text(data.userName ?? data.id);
  return text(data.displayName ?? data.id);
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : '—');
