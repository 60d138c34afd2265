import { useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api';
import { formatTime, lines } from '../logic/format';
import { bind, confirmThenRun, FormFooter, listOf, ListTable, PageHead, RowButton } from '../ui/blocks';
import { CopyButton, ErrorBanner, SecretOnce, SelectField, TextArea, TextField, useAction, useConfirm, useLoad } from '../ui/kit';
import type { SectionProps } from './WorkspacePage';

type Client = Schemas['OAuthClient'];

/** OAuth clients: the applications end users register and sign in through. */
export function ApplicationsPage({ workspaceId }: SectionProps) {
  const list = useLoad(
    () => call(api.GET('/developer/oauth/clients/', { params: { query: { workspace_id: workspaceId } } })),
    [workspaceId],
  );
  const [editing, setEditing] = useState<Client | 'new'>();
  const [secret, setSecret] = useState<string>();
  const action = useAction();
  const confirm = useConfirm();

  const rotate = async (client: Client) => {
    const rotated = await confirmThenRun(
      confirm,
      action,
      [`Rotate the secret of “${client.name}”?`, <p>The current secret stops working at once.</p>, 'Rotate'],
      () => call(api.POST('/developer/oauth/clients/{id}/secret/', { params: { path: { id: client.id } } })),
    );
    if (rotated) setSecret((rotated as Schemas['OAuthClientWithSecret']).client_secret ?? undefined);
  };
  const remove = async (client: Client) => {
    const done = await confirmThenRun(
      confirm,
      action,
      [`Delete “${client.name}”?`, <p>Its end users can no longer sign in through it.</p>, 'Delete'],
      () => call(api.DELETE('/developer/oauth/clients/{id}/', { params: { path: { id: client.id } } })).then(() => true),
    );
    if (done) void list.reload();
  };

  return (
    <section>
      <PageHead heading={<h1>Applications</h1>} open={Boolean(editing)} create="New application" onCreate={() => setEditing('new')} />
      <p className="lead">
        OAuth clients: the apps your end users register, verify their email and sign in through. Under each name, the hosted pages its end
        users see: sign-in, security (two-step verification and passkeys) and sessions.
      </p>
      {editing ? (
        <ClientForm
          key={editing === 'new' ? 'new' : editing.id}
          workspaceId={workspaceId}
          client={editing === 'new' ? undefined : editing}
          onDone={(created) => {
            setEditing(undefined);
            if (created) setSecret(created.client_secret ?? undefined);
            void list.reload();
          }}
        />
      ) : null}
      {secret ? <SecretOnce label="Client secret" value={secret} onDone={() => setSecret(undefined)} /> : null}
      <ErrorBanner problem={action.problem} />
      <ListTable
        {...listOf(list)}
        empty="No applications yet."
        caption="Applications"
        columns={['Name', 'Client ID', 'Redirect URIs', 'Created']}
        actions
        row={(c) => (
          <tr key={c.id}>
            <td>
              {c.name}
              {c.client_type === 'public' ? (
                <div>
                  <span className="badge neutral">public, PKCE only</span>
                </div>
              ) : null}
              <EndUserPages client={c} />
            </td>
            <td>
              <code>{c.client_id}</code> <CopyButton value={c.client_id} label="Copy ID" />
            </td>
            <td className="mono">{c.redirect_uris.length ? c.redirect_uris.join(', ') : '—'}</td>
            <td>{formatTime(c.created_at)}</td>
            <td>
              <div className="actions">
                <RowButton onClick={() => setEditing(c)} label={`Edit ${c.name}`}>
                  Edit
                </RowButton>
                {/* A public client (a browser or native app) has no secret to rotate: the API refuses it. */}
                {c.client_type === 'confidential' ? (
                  <RowButton onClick={() => void rotate(c)} label={`Rotate secret of ${c.name}`}>
                    Rotate secret
                  </RowButton>
                ) : null}
                <RowButton danger onClick={() => void remove(c)} label={`Delete ${c.name}`}>
                  Delete
                </RowButton>
              </div>
            </td>
          </tr>
        )}
      />
      {confirm.dialog}
    </section>
  );
}

/**
 * What this application's end users see: the hosted pages, carrying its name (they open in a new tab, so the
 * console stays where it was). The security page is where a person sets up two-step verification and passkeys.
 */
function EndUserPages({ client }: { client: Client }) {
  const query = `?client_id=${encodeURIComponent(client.client_id)}`;
  return (
    <nav className="hint end-user-pages" aria-label={`What end users of ${client.name} see`}>
      <a href={`/auth/login/${query}`} target="_blank" rel="noopener">
        Sign-in page
      </a>{' '}
      ·{' '}
      <a href={`/auth/security/${query}`} target="_blank" rel="noopener">
        Security page
      </a>{' '}
      ·{' '}
      <a href={`/auth/sessions/${query}`} target="_blank" rel="noopener">
        Sessions page
      </a>
    </nav>
  );
}

function ClientForm({
  workspaceId,
  client,
  onDone,
}: {
  workspaceId: string;
  client?: Client;
  onDone: (created?: Schemas['OAuthClientWithSecret']) => void;
}) {
  const [name, setName] = useState(client?.name ?? '');
  const [uris, setUris] = useState((client?.redirect_uris ?? []).join('\n'));
  const [clientType, setClientType] = useState<'confidential' | 'public'>('confidential');
  const [allowSignup, setAllowSignup] = useState(client?.allow_signup ?? false);
  const [requirePkce, setRequirePkce] = useState(client?.require_pkce ?? true);
  const isPublic = (client?.client_type ?? clientType) === 'public';
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const redirect_uris = lines(uris);
    if (client) {
      if (
        await action.run(() =>
          call(
            api.PUT('/developer/oauth/clients/{id}/', {
              params: { path: { id: client.id } },
              body: { name, redirect_uris, allow_signup: allowSignup, require_pkce: isPublic || requirePkce },
            }),
          ),
        )
      ) {
        onDone();
      }
      return;
    }
    const created = await action.run(() =>
      call(
        api.POST('/developer/oauth/clients/', {
          body: {
            workspace_id: workspaceId,
            name,
            redirect_uris,
            client_type: clientType,
            allow_signup: allowSignup,
            require_pkce: isPublic || requirePkce,
          },
        }),
      ),
    );
    if (created) onDone(created as Schemas['OAuthClientWithSecret']);
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label={client ? `Edit ${client.name}` : 'New application'} noValidate>
      <TextField label="Name" name="name" required autoFocus {...bind(name, setName)} problem={action.problem} />
      {/* The type is fixed at creation (the API refuses a change), so only a new application offers the choice. */}
      {client ? null : (
        <SelectField
          label="Client type"
          name="client_type"
          value={clientType}
          onChange={(e) => setClientType(e.target.value === 'public' ? 'public' : 'confidential')}
          problem={action.problem}
          hint={
            clientType === 'public'
              ? 'A browser or native app: no secret, PKCE is its proof. Native apps may use a loopback URI or a reverse-domain scheme (com.example.app:/callback).'
              : 'A server-side app that keeps a client secret.'
          }
        >
          <option value="confidential">Confidential (server-side, with a secret)</option>
          <option value="public">Public client (PKCE, no secret)</option>
        </SelectField>
      )}
      {/* A public client always uses PKCE (the API refuses false), so only a confidential one offers the choice. */}
      {isPublic ? null : (
        <div className="field">
          <label>
            <input type="checkbox" name="require_pkce" checked={requirePkce} onChange={(e) => setRequirePkce(e.target.checked)} /> Require
            PKCE
          </label>
          <p className="hint">
            Off: requests without PKCE are accepted, and must then carry a nonce (as OpenID certification tests send them).
          </p>
        </div>
      )}
      <TextArea
        label="Redirect URIs"
        name="redirect_uris"
        {...bind(uris, setUris)}
        problem={action.problem}
        rows={3}
        hint="One per line."
      />
      <div className="field">
        <label>
          <input type="checkbox" name="allow_signup" checked={allowSignup} onChange={(e) => setAllowSignup(e.target.checked)} /> Let people
          create an account on the hosted login
        </label>
        <p className="hint">Adds “Create an account” to this application’s sign-in page (email, password, then the emailed code).</p>
      </div>
      <FormFooter problem={action.problem} busy={action.busy} submit={client ? 'Save' : 'Create'} onCancel={() => onDone()} />
    </form>
  );
}
