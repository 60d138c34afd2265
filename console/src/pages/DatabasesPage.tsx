import type { SectionProps } from './WorkspacePage';

export function DatabasesPage({ workspace }: SectionProps) {
  return <h1>{workspace.name}</h1>;
}
