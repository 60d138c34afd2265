import { useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api';
import { formatTime } from '../logic/format';
import { bind, confirmThenRun, expiresAt, ExpiresField, FormFooter, listOf, ListTable, PageHead, RowButton } from '../ui/blocks';
import { Badge, CopyButton, ErrorBanner, SecretOnce, TextField, useAction, useConfirm, useLoad } from '../ui/kit';
import type { SectionProps } from './WorkspacePage';

type ScimToken = Schemas['ScimToken'];

export function ScimPage({ workspaceId }: SectionProps) {
  const baseUrl = `${window.location.origin}/scim/v2`;
  const list = useLoad(() => call(api.GET('/developer/scim/tokens/', { params: { query: { workspace_id: workspaceId } } })), [workspaceId]);
  const [open, setOpen] = useState(false);
  const [label, setLabel] = useState('');
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<string>();
  const action = useAction();
  const confirm = useConfirm();

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const token = await action.run(() =>
      call(
        api.POST('/developer/scim/tokens/', {
          body: { workspace_id: workspaceId, label, ...expiresAt(expires) },
        }),
      ),
    );
    if (token) {
      setCreated((token as Schemas['ScimTokenCreated']).token);
      setOpen(false);
      setLabel('');
      setExpires('');
      void list.reload();
    }
  };

  const revoke = async (token: ScimToken) => {
    const done = await confirmThenRun(
      confirm,
      action,
      [
        `Revoke “${token.label}”?`,
        <p>The identity provider using this token will get 401 on its next call and stop provisioning until it gets a new token.</p>,
        'Revoke',
      ],
      () => call(api.DELETE('/developer/scim/tokens/{id}/', { params: { path: { id: token.id } } })),
    );
    if (done) void list.reload();
  };

  return (
    <section>
      <h1>SCIM provisioning</h1>
      <p className="lead">
        Your customer's identity provider (Okta, Entra ID, Google) creates, updates and removes users here over SCIM 2.0.
      </p>
      <div className="card">
        <h2>SCIM base URL</h2>
        <div className="row">
          <code className="mono grow" aria-label="SCIM base URL">
            {baseUrl}
          </code>
          <CopyButton value={baseUrl} />
        </div>
        <p className="hint">Paste it in the identity provider with a token below as its bearer token (“HTTP header” authentication).</p>
      </div>

      <PageHead heading={<h2>Tokens</h2>} open={open} create="New token" onCreate={() => setOpen(true)} />
      {open ? (
        <form className="card" onSubmit={(e) => void create(e)} aria-label="New SCIM token" noValidate>
          <div className="row wrap">
            <TextField
              label="Label"
              name="label"
              required
              autoFocus
              {...bind(label, setLabel)}
              problem={action.problem}
              hint="Which IdP uses it, e.g. Okta production."
            />
            <ExpiresField value={expires} set={setExpires} problem={action.problem} />
          </div>
          <FormFooter problem={action.problem} busy={action.busy} submit="Create" onCancel={() => setOpen(false)} />
        </form>
      ) : (
        <ErrorBanner problem={action.problem} />
      )}
      {created ? <SecretOnce label="New token value" value={created} onDone={() => setCreated(undefined)} /> : null}

      <ListTable
        {...listOf(list)}
        empty="No SCIM tokens yet."
        caption="SCIM tokens"
        columns={['Label', 'Status', 'Created', 'Expires']}
        actions
        row={(t) => (
          <tr key={t.id}>
            <td>{t.label}</td>
            <td>{t.is_active ? <Badge tone="ok">active</Badge> : <Badge tone="neutral">revoked {formatTime(t.revoked_at)}</Badge>}</td>
            <td>{formatTime(t.created_at)}</td>
            <td>{formatTime(t.expires_at)}</td>
            <td>
              {t.is_active ? (
                <RowButton danger onClick={() => void revoke(t)} label={`Revoke ${t.label}`}>
                  Revoke
                </RowButton>
              ) : null}
            </td>
          </tr>
        )}
      />

      <details className="card">
        <summary>Setup notes per identity provider</summary>
        <h3>Okta</h3>
        <p>
          SCIM 2.0 app, base URL above, unique identifier field <code>userName</code>, authentication “HTTP Header” with the token. Turn on
          Push New Users, Push Profile Updates, Push Groups and Deactivate Users.
        </p>
        <h3>Microsoft Entra ID</h3>
        <p>
          Enterprise application → Provisioning → Automatic: Tenant URL = the base URL above, Secret Token = the token. The default
          attribute mappings work (<code>userPrincipalName</code> → <code>userName</code>).
        </p>
        <h3>OneLogin, JumpCloud, Google Workspace</h3>
        <p>
          SCIM 2.0 base URL and bearer token; match users on <code>userName</code>, which must be an email address.
        </p>
        <p className="hint">
          A deleted user stays readable with <code>active: false</code>; userName is stored lower-cased. The full compatibility notes are in
          docs/scim.md.
        </p>
      </details>
      {confirm.dialog}
    </section>
  );
}
