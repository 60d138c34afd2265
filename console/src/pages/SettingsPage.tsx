import type { SectionProps } from './WorkspacePage';

export function SettingsPage({ workspace }: SectionProps) {
  return <h1>{workspace.name}</h1>;
}
