import { useState } from 'react';
import { api, call } from '../api';
import { formatTime } from '../logic/format';
import { connectionPath } from '../logic/routes';
import { domainState, PROTOCOL_NAMES } from '../logic/sso';
import { Link, navigate } from '../router';
import { listOf, ListTable, PageHead } from '../ui/blocks';
import { Badge, useLoad } from '../ui/kit';
import { SsoConnectionForm } from './SsoConnectionForm';
import { SsoConnectionPage } from './SsoConnectionPage';
import type { SectionProps } from './WorkspacePage';

/** The workspace's enterprise SSO connections; with an item id, that connection's own page. */
export function SsoConnectionsPage({ workspaceId, itemId }: SectionProps) {
  if (itemId) return <SsoConnectionPage key={itemId} workspaceId={workspaceId} connectionId={itemId} />;
  return <ConnectionList workspaceId={workspaceId} />;
}

function ConnectionList({ workspaceId }: { workspaceId: string }) {
  const list = useLoad(
    () => call(api.GET('/developer/external-providers/', { params: { query: { workspace_id: workspaceId } } })),
    [workspaceId],
  );
  const [creating, setCreating] = useState(false);
  return (
    <section>
      <PageHead heading={<h1>SSO connections</h1>} open={creating} create="New connection" onCreate={() => setCreating(true)} />
      <p className="lead">
        Let the people of this workspace sign in with their company's identity provider (Okta, Entra ID, Google Workspace, any OpenID
        Connect or SAML 2.0 provider). The first sign-in finds the person your directory already has by email.
      </p>
      {creating ? (
        <SsoConnectionForm
          workspaceId={workspaceId}
          onDone={(saved) => {
            setCreating(false);
            if (saved) navigate(connectionPath(workspaceId, saved.id));
          }}
        />
      ) : null}
      <ListTable
        {...listOf(list)}
        empty="No connections yet."
        caption="SSO connections"
        columns={['Name', 'Protocol', 'Domains', 'Created']}
        row={(c) => (
          <tr key={c.id}>
            <td>
              <Link href={connectionPath(workspaceId, c.id)}>{c.name}</Link>
            </td>
            <td>{PROTOCOL_NAMES[c.protocol]}</td>
            <td>
              {c.domain_verifications.length
                ? c.domain_verifications.map((d) => (
                    <span key={d.domain} className="domain">
                      {d.domain} {domainState(d) === 'verified' ? <Badge tone="ok">verified</Badge> : <Badge tone="warn">pending</Badge>}
                    </span>
                  ))
                : '—'}
            </td>
            <td>{formatTime(c.created_at)}</td>
          </tr>
        )}
      />
    </section>
  );
}
