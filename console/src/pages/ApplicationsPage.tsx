import type { SectionProps } from './WorkspacePage';

export function ApplicationsPage({ workspace }: SectionProps) {
  return <h1>{workspace.name}</h1>;
}
