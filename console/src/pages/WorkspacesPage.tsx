import { useState, type FormEvent } from 'react';
import { api, call } from '../api';
import { workspacePath } from '../logic/routes';
import { Link, navigate } from '../router';
import { bind, FormFooter, ListState, PageHead } from '../ui/blocks';
import { TextField, useAction, useLoad } from '../ui/kit';

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
      <PageHead heading={<h1>Workspaces</h1>} open={creating} create="New workspace" onCreate={() => setCreating(true)} />
      <p className="lead">A workspace holds one customer's directory, SAML apps, tokens, audit log and databases.</p>
      {creating ? (
        <form className="card" onSubmit={(e) => void create(e)} aria-label="New workspace" noValidate>
          <TextField label="Name" name="name" required autoFocus {...bind(name, setName)} problem={action.problem} />
          <TextField label="Description" name="description" {...bind(description, setDescription)} problem={action.problem} />
          <FormFooter problem={action.problem} busy={action.busy} submit="Create" onCancel={() => setCreating(false)} />
        </form>
      ) : null}
      <ListState
        loading={list.loading}
        problem={list.problem}
        retry={() => void list.reload()}
        items={list.data}
        empty="No workspaces yet: create one to connect a directory or a SAML app."
      >
        {(workspaces) => (
          <ul className="tiles">
            {workspaces.map((w) => (
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
        )}
      </ListState>
    </section>
  );
}
