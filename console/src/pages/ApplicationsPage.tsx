import { useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api';
import { formatTime, lines } from '../logic/format';
import { CopyButton, Empty, ErrorBanner, Loading, SecretOnce, TextArea, TextField, useAction, useConfirm, useLoad } from '../ui/kit';
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
    const ok = await confirm.ask(`Rotate the secret of “${client.name}”?`, <p>The current secret stops working at once.</p>, 'Rotate');
    if (!ok) return;
    const rotated = await action.run(() =>
      call(api.POST('/developer/oauth/clients/{id}/secret/', { params: { path: { id: client.id } } })),
    );
    if (rotated) setSecret((rotated as Schemas['OAuthClientWithSecret']).client_secret);
  };
  const remove = async (client: Client) => {
    const ok = await confirm.ask(`Delete “${client.name}”?`, <p>Its end users can no longer sign in through it.</p>, 'Delete');
    if (!ok) return;
    if (
      await action.run(() => call(api.DELETE('/developer/oauth/clients/{id}/', { params: { path: { id: client.id } } })).then(() => true))
    ) {
      void list.reload();
    }
  };

  return (
    <section>
      <div className="page-head">
        <h1>Applications</h1>
        {!editing ? (
          <button type="button" onClick={() => setEditing('new')}>
            New application
          </button>
        ) : null}
      </div>
      <p className="lead">OAuth clients: the apps your end users register, verify their email and sign in through.</p>
      {editing ? (
        <ClientForm
          key={editing === 'new' ? 'new' : editing.id}
          workspaceId={workspaceId}
          client={editing === 'new' ? undefined : editing}
          onDone={(created) => {
            setEditing(undefined);
            if (created) setSecret(created.client_secret);
            void list.reload();
          }}
        />
      ) : null}
      {secret ? <SecretOnce label="Client secret" value={secret} onDone={() => setSecret(undefined)} /> : null}
      <ErrorBanner problem={action.problem} />
      {list.loading && !list.data ? <Loading /> : null}
      <ErrorBanner problem={list.problem} />
      {list.data && list.data.results.length === 0 ? <Empty>No applications yet.</Empty> : null}
      {list.data && list.data.results.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Applications</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Client ID</th>
                <th scope="col">Redirect URIs</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.results.map((c) => (
                <tr key={c.id}>
                  <td>{c.name}</td>
                  <td>
                    <code>{c.client_id}</code> <CopyButton value={c.client_id} label="Copy ID" />
                  </td>
                  <td className="mono">{c.redirect_uris.length ? c.redirect_uris.join(', ') : '—'}</td>
                  <td>{formatTime(c.created_at)}</td>
                  <td>
                    <div className="actions">
                      <button type="button" className="secondary small" onClick={() => setEditing(c)} aria-label={`Edit ${c.name}`}>
                        Edit
                      </button>
                      <button
                        type="button"
                        className="secondary small"
                        onClick={() => void rotate(c)}
                        aria-label={`Rotate secret of ${c.name}`}
                      >
                        Rotate secret
                      </button>
                      <button type="button" className="danger small" onClick={() => void remove(c)} aria-label={`Delete ${c.name}`}>
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {confirm.dialog}
    </section>
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
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const redirect_uris = lines(uris);
    if (client) {
      if (
        await action.run(() =>
          call(api.PUT('/developer/oauth/clients/{id}/', { params: { path: { id: client.id } }, body: { name, redirect_uris } })),
        )
      ) {
        onDone();
      }
      return;
    }
    const created = await action.run(() =>
      call(api.POST('/developer/oauth/clients/', { body: { workspace_id: workspaceId, name, redirect_uris } })),
    );
    if (created) onDone(created as Schemas['OAuthClientWithSecret']);
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label={client ? `Edit ${client.name}` : 'New application'} noValidate>
      <TextField
        label="Name"
        name="name"
        required
        autoFocus
        value={name}
        onChange={(e) => setName(e.target.value)}
        problem={action.problem}
      />
      <TextArea
        label="Redirect URIs"
        name="redirect_uris"
        value={uris}
        onChange={(e) => setUris(e.target.value)}
        problem={action.problem}
        rows={3}
        hint="One per line."
      />
      <ErrorBanner problem={action.problem} />
      <div className="actions">
        <button type="submit" disabled={action.busy}>
          {client ? 'Save' : 'Create'}
        </button>
        <button type="button" className="secondary" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}
