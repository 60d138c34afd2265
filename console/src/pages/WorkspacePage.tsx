import { api, call, devMailbox, type Schemas } from '../api';
import { WORKSPACE_SECTIONS, workspacePath, type Section } from '../logic/routes';
import { Link } from '../router';
import { ErrorBanner, Loading, useLoad } from '../ui/kit';
import { ApplicationsPage } from './ApplicationsPage';
import { AuditPage } from './AuditPage';
import { EventsPage } from './EventsPage';
import { DatabasesPage } from './DatabasesPage';
import { DirectoryPage } from './DirectoryPage';
import { MailboxPage } from './MailboxPage';
import { MembersPage } from './MembersPage';
import { SamlPage } from './SamlPage';
import { ScimPage } from './ScimPage';
import { SettingsPage } from './SettingsPage';
import { SharedSignalsPage } from './SharedSignalsPage';
import { SsoConnectionsPage } from './SsoConnectionsPage';
import { TemplatesPage } from './TemplatesPage';
import { WebhooksPage } from './WebhooksPage';

export type Workspace = Schemas['Workspace'];

export interface SectionProps {
  workspaceId: string;
  onChanged: () => void;
  /** An item of the section with its own page (one SSO connection). */
  itemId?: string;
}

/** Sections load their own data from the workspace id at once (no wait for the workspace itself). */
const PAGES: Record<Exclude<Section, 'settings'>, (props: SectionProps) => React.JSX.Element> = {
  scim: ScimPage,
  directory: DirectoryPage,
  events: EventsPage,
  saml: SamlPage,
  sso: SsoConnectionsPage,
  applications: ApplicationsPage,
  audit: AuditPage,
  webhooks: WebhooksPage,
  ssf: SharedSignalsPage,
  databases: DatabasesPage,
  members: MembersPage,
  templates: TemplatesPage,
  mailbox: MailboxPage,
};

export function WorkspacePage({ workspaceId, section, itemId }: { workspaceId: string; section: Section; itemId?: string }) {
  const workspace = useLoad(
    () => call(api.GET('/e/v1/developer/workspaces/{id}/', { params: { path: { id: workspaceId } } })),
    [workspaceId],
  );
  // The development mailbox exists only where the server answers it (not in production, not with SMTP).
  const mailbox = useLoad(() => devMailbox(workspaceId).then(() => true), [workspaceId]);
  const sections = WORKSPACE_SECTIONS.filter((s) => s.id !== 'mailbox' || mailbox.data === true || section === 'mailbox');
  const onChanged = () => void workspace.reload();
  return (
    <div className="workspace">
      <nav className="side" aria-label="Workspace">
        <p className="side-title">{workspace.data?.name ?? 'Workspace'}</p>
        <ul>
          {sections.map((s) => (
            <li key={s.id}>
              <Link href={workspacePath(workspaceId, s.id)} aria-current={s.id === section && !itemId ? 'page' : undefined}>
                {s.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="content">
        <ErrorBanner problem={workspace.problem} retry={() => void workspace.reload()} />
        {section === 'settings' ? (
          workspace.data ? (
            <SettingsPage key={workspace.data.name} workspace={workspace.data} onChanged={onChanged} />
          ) : workspace.loading ? (
            <Loading />
          ) : null
        ) : workspace.problem ? null : (
          <SectionPage section={section} workspaceId={workspaceId} itemId={itemId} onChanged={onChanged} />
        )}
      </div>
    </div>
  );
}

function SectionPage({ section, ...props }: SectionProps & { section: Exclude<Section, 'settings'> }) {
  const Page = PAGES[section];
  return <Page {...props} />;
}
