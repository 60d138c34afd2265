import { useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api';
import { formatTime } from '../logic/format';
import { bind, confirmThenRun, expiresAt, ExpiresField, FormFooter, listOf, ListTable, RowButton } from '../ui/blocks';
import { SecretOnce, TextField, useAction, useConfirm, useLoad } from '../ui/kit';

/** Developer access tokens (dat_…): for scripts and CI, sent as a bearer token. */
export function TokensPage() {
  const list = useLoad(() => call(api.GET('/developer/tokens/')), []);
  const [label, setLabel] = useState('');
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<Schemas['DeveloperTokenCreated']>();
  const action = useAction();
  const confirm = useConfirm();

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const token = await action.run(() => call(api.POST('/developer/tokens/', { body: { label, ...expiresAt(expires) } })));
    if (token) {
      setCreated(token);
      setLabel('');
      setExpires('');
      void list.reload();
    }
  };

  const revoke = async (token: Schemas['DeveloperToken']) => {
    const done = await confirmThenRun(
      confirm,
      action,
      ['Revoke this token?', <p>Scripts using “{token.label}” will be refused from now on.</p>, 'Revoke'],
      () => call(api.DELETE('/developer/tokens/{id}/', { params: { path: { id: token.id } } })).then(() => true),
    );
    if (done) void list.reload();
  };

  return (
    <section>
      <h1>Developer access tokens</h1>
      <p className="lead">
        For scripts and CI: send one as <code>Authorization: Bearer dat_…</code> to the developer API. It acts as you in every workspace you
        belong to.
      </p>
      <form className="card" onSubmit={(e) => void create(e)} aria-label="New access token" noValidate>
        <div className="row wrap">
          <TextField label="Label" name="label" required {...bind(label, setLabel)} problem={action.problem} />
          <ExpiresField value={expires} set={setExpires} problem={action.problem} />
        </div>
        <FormFooter problem={action.problem} busy={action.busy} submit="Create token" />
      </form>
      {created ? <SecretOnce label="New access token value" value={created.token} onDone={() => setCreated(undefined)} /> : null}
      <h2>Your tokens</h2>
      <ListTable
        {...listOf(list)}
        empty="No access tokens."
        columns={['Label', 'Created', 'Expires']}
        actions
        row={(t) => (
          <tr key={t.id}>
            <td>{t.label}</td>
            <td>{formatTime(t.created_at)}</td>
            <td>{formatTime(t.expires_at)}</td>
            <td>
              <RowButton danger onClick={() => void revoke(t)}>
                Revoke
              </RowButton>
            </td>
          </tr>
        )}
      />
      {confirm.dialog}
    </section>
  );
}
