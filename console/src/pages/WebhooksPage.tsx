import type { SectionProps } from './WorkspacePage';

export function WebhooksPage({ workspace }: SectionProps) {
  return <h1>{workspace.name}</h1>;
}
