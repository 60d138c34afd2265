import type { SectionProps } from './WorkspacePage';

export function SamlPage({ workspace }: SectionProps) {
  return <h1>{workspace.name}</h1>;
}
