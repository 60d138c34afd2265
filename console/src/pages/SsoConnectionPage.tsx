import { useId, useState } from 'react';
import { api, call } from '../api';
import { formatTime } from '../logic/format';
import { workspacePath } from '../logic/routes';
import { domainState, IDPS, idpSetup, PROTOCOL_NAMES, reasonInWords, testSignInUrl, type Idp } from '../logic/sso';
import { Link, navigate } from '../router';
import { confirmThenRun, DataTable, ListTable, PageHead, RowButton } from '../ui/blocks';
import { Badge, CopyButton, Empty, ErrorBanner, Loading, useAction, useConfirm, useLoad } from '../ui/kit';
import { SsoConnectionForm, type Connection } from './SsoConnectionForm';

/**
 * One connection: the values to paste into the identity provider, a test sign-in, its domains and
 * their verification, its settings (edit, delete) and the last sign-in attempts with their reasons.
 */
export function SsoConnectionPage({ workspaceId, connectionId }: { workspaceId: string; connectionId: string }) {
  const connection = useLoad(
    () => call(api.GET('/developer/external-providers/{id}/', { params: { path: { id: connectionId } } })),
    [connectionId],
  );
  const [editing, setEditing] = useState(false);
  const action = useAction();
  const confirm = useConfirm();
  const back = workspacePath(workspaceId, 'sso');
  const c = connection.data;

  const remove = async (target: Connection) => {
    const done = await confirmThenRun(
      confirm,
      action,
      [
        `Delete “${target.name}”?`,
        <p>Sign-ins through it stop at once; the people it signed in stay in the directory. This cannot be undone.</p>,
        'Delete',
      ],
      () => call(api.DELETE('/developer/external-providers/{id}/', { params: { path: { id: target.id } } })).then(() => true),
    );
    if (done) navigate(back);
  };

  return (
    <section>
      <p>
        <Link href={back}>← All SSO connections</Link>
      </p>
      <ErrorBanner problem={connection.problem} />
      {connection.loading && !c ? <Loading /> : null}
      {c ? (
        <>
          <PageHead heading={<h1>{c.name}</h1>} open={editing}>
            <div className="actions">
              <a className="button" href={testSignInUrl(c)} target="_blank" rel="noreferrer">
                Test sign-in
              </a>
              <button type="button" className="secondary" onClick={() => setEditing(true)}>
                Edit
              </button>
              <button type="button" className="danger" onClick={() => void remove(c)}>
                Delete
              </button>
            </div>
          </PageHead>
          <p className="lead">
            {PROTOCOL_NAMES[c.protocol]} · created {formatTime(c.created_at)}. “Test sign-in” opens a sign-in through this connection in a
            new tab; it ends on a page saying who is signed in, or why the sign-in was refused (then listed below).
          </p>
          <ErrorBanner problem={action.problem} />
          {editing ? (
            <SsoConnectionForm
              workspaceId={workspaceId}
              connection={c}
              onDone={(saved) => {
                setEditing(false);
                if (saved) connection.setData(saved);
              }}
            />
          ) : null}
          <PasteValues connection={c} />
          <Domains connection={c} onVerified={connection.setData} />
          <Attempts connectionId={c.id} />
          {editing ? null : <Settings connection={c} />}
        </>
      ) : null}
      {confirm.dialog}
    </section>
  );
}

/** Our side of the connection, then the same values under each identity provider's own field names. */
function PasteValues({ connection }: { connection: Connection }) {
  const [idp, setIdp] = useState<Idp>('okta');
  const ours: Array<readonly [string, string | undefined]> =
    connection.protocol === 'oidc'
      ? [
          ['Redirect URI', connection.redirect_uri],
          ...(connection.oidc?.token_endpoint_auth_method === 'private_key_jwt' ? [['JWKS URL', connection.jwks_uri] as const] : []),
        ]
      : [
          ['SP entity ID', connection.sp_entity_id],
          ['ACS URL', connection.acs_url],
          ['SP metadata URL', connection.sp_metadata_url],
        ];
  const setup = idpSetup(connection, idp);
  const idpName = IDPS.find((i) => i.id === idp)?.label ?? '';
  return (
    <div className="card" role="region" aria-label="Values for your identity provider">
      <h2>Values for your identity provider</h2>
      {ours.map(([label, value]) => (value ? <CopyField key={label} label={label} value={value} /> : null))}
      <h3>Step by step</h3>
      <div className="tabs" role="group" aria-label="Identity provider">
        {IDPS.map((i) => (
          <button
            key={i.id}
            type="button"
            className={i.id === idp ? '' : 'secondary'}
            aria-pressed={i.id === idp}
            onClick={() => setIdp(i.id)}
          >
            {i.label}
          </button>
        ))}
      </div>
      <p>
        In {idpName}: {setup.where}.
      </p>
      <DataTable caption={`Fields at ${idpName}`} columns={[`Field at ${idpName}`, 'Value']} actions>
        {setup.values.map((v) => (
          <tr key={v.field}>
            <td>{v.field}</td>
            <td className="mono breakable">{v.value}</td>
            <td>{/^https?:/.test(v.value) ? <CopyButton value={v.value} what={v.field} /> : null}</td>
          </tr>
        ))}
      </DataTable>
      <p className="hint">{setup.bringBack}</p>
    </div>
  );
}

function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="row">
        <input id={id} readOnly value={value} className="mono" onFocus={(e) => e.currentTarget.select()} />
        <CopyButton value={value} what={label} />
      </div>
    </div>
  );
}

function Domains({ connection, onVerified }: { connection: Connection; onVerified: (connection: Connection) => void }) {
  const action = useAction();
  const [checked, setChecked] = useState<{ domain: string; verified: boolean }>();
  const verify = async (domain: string) => {
    setChecked(undefined);
    const updated = await action.run(() =>
      call(api.POST('/developer/external-providers/{id}/domains/{domain}/verify/', { params: { path: { id: connection.id, domain } } })),
    );
    if (updated) {
      onVerified(updated);
      setChecked({ domain, verified: true });
    }
  };
  return (
    <div className="card">
      <h2>Domains</h2>
      {connection.domain_verifications.length === 0 ? (
        <Empty>No domains: add the company's email domains (Edit) so its people are sent here from the sign-in page.</Empty>
      ) : (
        <>
          <p>
            Publish each TXT record at your DNS provider, then <strong>Verify</strong>: sign-ins of a domain are routed here once it is
            verified.
          </p>
          <ErrorBanner problem={action.problem} />
          {checked?.verified ? <p role="status">{checked.domain} is verified.</p> : null}
          <DataTable caption="Domains" columns={['Domain', 'Status', 'TXT record name', 'TXT record value']} actions>
            {connection.domain_verifications.map((d) => (
              <tr key={d.domain}>
                <td>{d.domain}</td>
                <td>
                  {domainState(d) === 'verified' ? (
                    <Badge tone="ok">verified {d.verified_at ? formatTime(d.verified_at) : ''}</Badge>
                  ) : (
                    <Badge tone="warn">pending</Badge>
                  )}
                  {domainState(d) === 'pending' && d.checked_at ? <p className="hint">last checked {formatTime(d.checked_at)}</p> : null}
                </td>
                <td className="mono breakable">{d.txt_record_name}</td>
                <td className="mono breakable">{d.txt_record_value}</td>
                <td>
                  <div className="actions tight">
                    <CopyButton value={d.txt_record_value} what={`the TXT value for ${d.domain}`} />
                    {domainState(d) === 'pending' ? (
                      <RowButton onClick={() => void verify(d.domain)} label={`Verify ${d.domain}`}>
                        Verify
                      </RowButton>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </DataTable>
        </>
      )}
    </div>
  );
}

function Settings({ connection }: { connection: Connection }) {
  const { oidc, saml } = connection;
  return (
    <div className="card">
      <h2>Settings</h2>
      <dl className="details">
        <dt>Protocol</dt>
        <dd>{PROTOCOL_NAMES[connection.protocol]}</dd>
        {oidc ? (
          <>
            <dt>Issuer</dt>
            <dd className="mono">{oidc.issuer}</dd>
            <dt>Client ID</dt>
            <dd className="mono">{oidc.client_id}</dd>
            <dt>Client secret</dt>
            <dd>{oidc.has_client_secret ? 'stored' : 'none'}</dd>
            <dt>Scopes</dt>
            <dd>{oidc.scopes.join(' ')}</dd>
          </>
        ) : null}
        {saml ? (
          <>
            <dt>IdP entity ID</dt>
            <dd className="mono">{saml.idp_entity_id ?? '—'}</dd>
            <dt>IdP SSO URL</dt>
            <dd className="mono">{saml.idp_sso_url ?? '—'}</dd>
            <dt>IdP certificates</dt>
            <dd>{saml.idp_certificates.length}</dd>
          </>
        ) : null}
        <dt>Just-in-time accounts</dt>
        <dd>{connection.jit ? 'on' : 'off'}</dd>
        <dt>Trust the IdP's MFA</dt>
        <dd>{connection.trust_upstream_mfa ? 'yes' : 'no'}</dd>
      </dl>
    </div>
  );
}

function Attempts({ connectionId }: { connectionId: string }) {
  const attempts = useLoad(
    () => call(api.GET('/developer/external-providers/{id}/attempts/', { params: { path: { id: connectionId }, query: { limit: 50 } } })),
    [connectionId],
  );
  return (
    <>
      <PageHead heading={<h2>Sign-in attempts</h2>}>
        <button type="button" className="secondary" onClick={() => void attempts.reload()} disabled={attempts.loading}>
          Refresh
        </button>
      </PageHead>
      <ListTable
        loading={attempts.loading}
        problem={attempts.problem}
        items={attempts.data?.results.map((a, index) => ({ ...a, index }))}
        empty="No sign-in through this connection yet."
        caption="Sign-in attempts"
        columns={['Time', 'Outcome', 'Reason', 'Subject', 'Email']}
        row={(a) => (
          <tr key={a.index}>
            <td>{formatTime(a.at)}</td>
            <td>{a.outcome === 'success' ? <Badge tone="ok">signed in</Badge> : <Badge tone="bad">refused</Badge>}</td>
            <td>
              {reasonInWords(a.reason)}
              {a.reason ? (
                <>
                  {' '}
                  <code>{a.reason}</code>
                </>
              ) : null}
            </td>
            <td className="mono">{a.subject ?? '—'}</td>
            <td>{a.email ?? '—'}</td>
          </tr>
        )}
      />
    </>
  );
}
