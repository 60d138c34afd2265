import { useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api';
import { formatTime } from '../logic/format';
import { Empty, ErrorBanner, Loading, SecretOnce, TextField, useAction, useConfirm, useLoad } from '../ui/kit';

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
    const token = await action.run(() =>
      call(api.POST('/developer/tokens/', { body: { label, ...(expires ? { expires_at: new Date(expires).toISOString() } : {}) } })),
    );
    if (token) {
      setCreated(token);
      setLabel('');
      setExpires('');
      void list.reload();
    }
  };

  const revoke = async (token: Schemas['DeveloperToken']) => {
    const ok = await confirm.ask('Revoke this token?', <p>Scripts using “{token.label}” will be refused from now on.</p>, 'Revoke');
    if (!ok) return;
    if (await action.run(() => call(api.DELETE('/developer/tokens/{id}/', { params: { path: { id: token.id } } })).then(() => true))) {
      void list.reload();
    }
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
          <TextField
            label="Label"
            name="label"
            required
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            problem={action.problem}
          />
          <TextField
            label="Expires (optional)"
            name="expires_at"
            type="datetime-local"
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
            problem={action.problem}
          />
        </div>
        <ErrorBanner problem={action.problem} />
        <button type="submit" disabled={action.busy}>
          Create token
        </button>
      </form>
      {created ? <SecretOnce label="New access token value" value={created.token} onDone={() => setCreated(undefined)} /> : null}
      <h2>Your tokens</h2>
      {list.loading && !list.data ? <Loading /> : null}
      <ErrorBanner problem={list.problem} />
      {list.data && list.data.results.length === 0 ? <Empty>No access tokens.</Empty> : null}
      {list.data && list.data.results.length > 0 ? (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.results.map((t) => (
                <tr key={t.id}>
                  <td>{t.label}</td>
                  <td>{formatTime(t.created_at)}</td>
                  <td>{formatTime(t.expires_at)}</td>
                  <td>
                    <button type="button" className="danger small" onClick={() => void revoke(t)}>
                      Revoke
                    </button>
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
