import type { SectionProps } from './WorkspacePage';

export function MembersPage({ workspace }: SectionProps) {
  return <h1>{workspace.name}</h1>;
}
