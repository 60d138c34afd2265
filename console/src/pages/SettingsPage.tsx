import { useState, type FormEvent } from 'react';
import { api, call } from '../api';
import { BASE } from '../logic/routes';
import { navigate } from '../router';
import { bind, confirmThenRun, FormFooter } from '../ui/blocks';
import { ErrorBanner, TextField, useAction, useConfirm } from '../ui/kit';
import type { Workspace } from './WorkspacePage';

/** Rename or delete the workspace. */
export function SettingsPage({ workspace, onChanged }: { workspace: Workspace; onChanged: () => void }) {
  const [name, setName] = useState(workspace.name);
  const [description, setDescription] = useState(workspace.description ?? '');
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const removal = useAction();
  const confirm = useConfirm();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const updated = await save.run(() =>
      call(api.PATCH('/e/v1/developer/workspaces/{id}/', { params: { path: { id: workspace.id } }, body: { name, description } })),
    );
    if (updated) {
      setSaved(true);
      onChanged();
    }
  };
  const remove = async () => {
    const done = await confirmThenRun(
      confirm,
      removal,
      [
        `Delete “${workspace.name}”?`,
        <p>Its SCIM tokens, SAML apps, applications, end users and webhooks go with it. This cannot be undone.</p>,
        'Delete workspace',
      ],
      () => call(api.DELETE('/e/v1/developer/workspaces/{id}/', { params: { path: { id: workspace.id } } })).then(() => true),
    );
    if (done) navigate(`${BASE}/`);
  };

  return (
    <section>
      <h1>Settings</h1>
      <form className="card" onSubmit={(e) => void submit(e)} aria-label="Rename workspace" noValidate>
        <TextField label="Name" name="name" required {...bind(name, setName)} problem={save.problem} />
        <TextField label="Description" name="description" {...bind(description, setDescription)} problem={save.problem} />
        <FormFooter problem={save.problem} busy={save.busy} submit="Save">
          {saved ? (
            <span role="status" className="muted">
              Saved.
            </span>
          ) : null}
        </FormFooter>
      </form>
      <div className="card">
        <h2>Delete this workspace</h2>
        <p>Everything in it is deleted.</p>
        <ErrorBanner problem={removal.problem} />
        <button type="button" className="danger" onClick={() => void remove()} disabled={removal.busy}>
          Delete workspace
        </button>
      </div>
      {confirm.dialog}
    </section>
  );
}
