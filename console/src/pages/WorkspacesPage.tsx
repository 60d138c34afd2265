import { useState, type FormEvent } from 'react';
import { api, call } from '../api';
import { workspacePath } from '../logic/routes';
import { Link, navigate } from '../router';
import { Empty, ErrorBanner, Loading, TextField, useAction, useLoad } from '../ui/kit';

export function WorkspacesPage() {
  const list = useLoad(() => call(api.GET('/e/v1/developer/workspaces/')), []);
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const action = useAction();

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const workspace = await action.run(() =>
      call(api.POST('/e/v1/developer/workspaces/', { body: { name, ...(description ? { description } : {}) } })),
    );
    if (workspace) navigate(workspacePath(workspace.id));
  };

  return (
    <section>
      <div className="page-head">
        <h1>Workspaces</h1>
        {!creating ? (
          <button type="button" onClick={() => setCreating(true)}>
            New workspace
          </button>
        ) : null}
      </div>
      <p className="lead">A workspace holds one customer's directory, SAML apps, tokens, audit log and databases.</p>
      {creating ? (
        <form className="card" onSubmit={(e) => void create(e)} aria-label="New workspace" noValidate>
          <TextField
            label="Name"
            name="name"
            required
            autoFocus
            value={name}
            onChange={(e) => setName(e.target.value)}
            problem={action.problem}
          />
          <TextField
            label="Description"
            name="description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            problem={action.problem}
          />
          <ErrorBanner problem={action.problem} />
          <div className="actions">
            <button type="submit" disabled={action.busy}>
              Create
            </button>
            <button type="button" className="secondary" onClick={() => setCreating(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {list.loading && !list.data ? <Loading /> : null}
      <ErrorBanner problem={list.problem} />
      {list.data && list.data.length === 0 ? <Empty>No workspaces yet: create one to connect a directory or a SAML app.</Empty> : null}
      {list.data && list.data.length > 0 ? (
        <ul className="tiles">
          {list.data.map((w) => (
            <li key={w.id} className="card">
              <h2>
                <Link href={workspacePath(w.id)}>{w.name}</Link>
              </h2>
              {w.description ? <p>{w.description}</p> : null}
              <p className="muted">
                {w.member_count} member{w.member_count === 1 ? '' : 's'} · {w.database_count} database{w.database_count === 1 ? '' : 's'}
              </p>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
