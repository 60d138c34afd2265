import type { SectionProps } from './WorkspacePage';

export function TemplatesPage({ workspace }: SectionProps) {
  return <h1>{workspace.name}</h1>;
}
