import { useState, type FormEvent } from 'react';
import { api, call, registerTestSp, type Schemas, type TestSpRegistration } from '../api';
import { mappingFromRows, rowsFromMapping, USER_FIELDS, type MappingRow, type UserField } from '../logic/mapping';
import { certificateFromMetadata } from '../logic/pem';
import { fieldMessages, type Problem } from '../logic/problem';
import { bind, confirmThenRun, FormFooter, listOf, ListTable, PageHead, RowButton } from '../ui/blocks';
import { Badge, CopyButton, download, ErrorBanner, SelectField, TextArea, TextField, useAction, useConfirm, useLoad } from '../ui/kit';
import type { SectionProps } from './WorkspacePage';

type Sp = Schemas['SamlServiceProvider'];
type SpInput = Schemas['CreateSamlSpDto'];
/**
 * The generated client marks fields that have a server default (name_id_format, is_active…) as required;
 * the API takes them as optional, and a partial body is what the console means to send.
 */
const partial = <T,>(body: Partial<T>) => body as T;

const NAME_ID_FORMATS = [
  ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress', 'Email address'],
  ['urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', 'Persistent (pairwise, stable)'],
  ['urn:oasis:names:tc:SAML:2.0:nameid-format:transient', 'Transient (new every sign-in)'],
  ['urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', 'Unspecified'],
] as const;

type Editing = { mode: 'new' } | { mode: 'import' } | { mode: 'edit'; sp: Sp };

export function SamlPage({ workspaceId }: SectionProps) {
  const metadataUrl = `${window.location.origin}/saml/metadata/`;
  const list = useLoad(() => call(api.GET('/developer/saml/sps/', { params: { query: { workspace_id: workspaceId } } })), [workspaceId]);
  const [editing, setEditing] = useState<Editing>();
  const action = useAction();
  const certificate = useAction();
  const confirm = useConfirm();

  const downloadCertificate = async () => {
    const xml = await certificate.run(() => call(api.GET('/saml/metadata/', { parseAs: 'text' })));
    if (xml === undefined) return;
    const pem = certificateFromMetadata(String(xml));
    if (pem) download('idp-signing-certificate.pem', pem, 'application/x-pem-file');
  };

  const toggle = async (sp: Sp) => {
    if (
      await action.run(() =>
        call(
          api.PUT('/developer/saml/sps/{id}/', {
            params: { path: { id: sp.id } },
            body: partial<Schemas['UpdateSamlSpDto']>({ is_active: !sp.is_active }),
          }),
        ),
      )
    ) {
      void list.reload();
    }
  };

  const remove = async (sp: Sp) => {
    const done = await confirmThenRun(
      confirm,
      action,
      [`Delete “${sp.name}”?`, <p>Sign-ins from {sp.sp_entity_id} will be refused. This cannot be undone.</p>, 'Delete'],
      () => call(api.DELETE('/developer/saml/sps/{id}/', { params: { path: { id: sp.id } } })).then(() => true),
    );
    if (done) void list.reload();
  };

  return (
    <section>
      <h1>SAML single sign-on</h1>
      <p className="lead">This service is the identity provider; register each application (service provider) your users sign in to.</p>
      <div className="card">
        <h2>Identity provider</h2>
        <p>Give the application this metadata URL, or the certificate below if it asks for one.</p>
        <div className="row">
          <code className="mono grow">{metadataUrl}</code>
          <CopyButton value={metadataUrl} />
        </div>
        <div className="actions">
          <a href={metadataUrl} target="_blank" rel="noreferrer">
            Open metadata XML
          </a>
          <button type="button" className="secondary" onClick={() => void downloadCertificate()} disabled={certificate.busy}>
            Download certificate
          </button>
        </div>
        <ErrorBanner problem={certificate.problem} />
      </div>

      <TestSpCard
        workspaceId={workspaceId}
        onRegistered={(created) => {
          if (created) void list.reload();
        }}
      />

      <PageHead heading={<h2>Service providers</h2>} open={Boolean(editing)}>
        <div className="actions">
          <button type="button" onClick={() => setEditing({ mode: 'new' })}>
            New service provider
          </button>
          <button type="button" className="secondary" onClick={() => setEditing({ mode: 'import' })}>
            Import metadata
          </button>
        </div>
      </PageHead>
      {editing?.mode === 'import' ? (
        <ImportForm
          workspaceId={workspaceId}
          onDone={(saved) => {
            setEditing(saved ? { mode: 'edit', sp: saved } : undefined);
            void list.reload();
          }}
        />
      ) : null}
      {editing && editing.mode !== 'import' ? (
        <SpForm
          key={editing.mode === 'edit' ? editing.sp.id : 'new'}
          workspaceId={workspaceId}
          sp={editing.mode === 'edit' ? editing.sp : undefined}
          onDone={() => {
            setEditing(undefined);
            void list.reload();
          }}
        />
      ) : null}
      <ErrorBanner problem={action.problem} />
      <ListTable
        {...listOf(list)}
        empty="No service providers yet."
        caption="Service providers"
        columns={['Name', 'Entity ID', 'ACS URL', 'Status']}
        actions
        row={(sp) => (
          <tr key={sp.id}>
            <td>{sp.name}</td>
            <td className="mono">{sp.sp_entity_id}</td>
            <td className="mono">{sp.acs_url}</td>
            <td>{sp.is_active ? <Badge tone="ok">active</Badge> : <Badge tone="neutral">inactive</Badge>}</td>
            <td>
              <div className="actions">
                <RowButton onClick={() => setEditing({ mode: 'edit', sp })} label={`Edit ${sp.name}`}>
                  Edit
                </RowButton>
                <RowButton onClick={() => void toggle(sp)} label={`${sp.is_active ? 'Deactivate' : 'Activate'} ${sp.name}`}>
                  {sp.is_active ? 'Deactivate' : 'Activate'}
                </RowButton>
                <RowButton danger onClick={() => void remove(sp)} label={`Delete ${sp.name}`}>
                  Delete
                </RowButton>
              </div>
            </td>
          </tr>
        )}
      />
      <p className="hint">
        To try a sign-in without an application, use the{' '}
        <a href={`/saml/test-sp/?workspace_id=${workspaceId}`}>built-in test service provider</a> (development only).
      </p>
      {confirm.dialog}
    </section>
  );
}

function ImportForm({ workspaceId, onDone }: { workspaceId: string; onDone: (saved?: Sp) => void }) {
  const [xml, setXml] = useState('');
  const [name, setName] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await action.run(() =>
      call(
        api.POST('/developer/saml/sps/', {
          body: partial<SpInput>({ workspace_id: workspaceId, metadata_xml: xml, ...(name ? { name } : {}) }),
        }),
      ),
    );
    if (saved) onDone(saved);
  };
  const readFile = async (file: File | undefined) => {
    if (file) setXml(await file.text());
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label="Import service provider metadata" noValidate>
      <h3>Import from the application's SAML metadata</h3>
      <TextField
        label="Metadata file"
        type="file"
        accept=".xml,application/xml,text/xml"
        onChange={(e) => void readFile(e.target.files?.[0])}
      />
      <TextArea label="Metadata XML" name="metadata_xml" {...bind(xml, setXml)} problem={action.problem} className="mono" />
      <TextField label="Name (optional)" name="name" {...bind(name, setName)} problem={action.problem} />
      <FormFooter problem={action.problem} busy={action.busy} disabled={!xml.trim()} submit="Import" onCancel={() => onDone()} />
    </form>
  );
}

function SpForm({ workspaceId, sp, onDone }: { workspaceId: string; sp?: Sp; onDone: () => void }) {
  const [name, setName] = useState(sp?.name ?? '');
  const [entityId, setEntityId] = useState(sp?.sp_entity_id ?? '');
  const [acsUrl, setAcsUrl] = useState(sp?.acs_url ?? '');
  const [format, setFormat] = useState<string>(sp?.name_id_format ?? NAME_ID_FORMATS[0][0]);
  const [nameIdField, setNameIdField] = useState<string>(sp?.name_id_attribute ?? 'email');
  const [sign, setSign] = useState(sp?.sign_assertions ?? true);
  const [relay, setRelay] = useState(sp?.default_relay_state ?? '');
  const [cert, setCert] = useState(sp?.sp_cert_pem ?? '');
  const [rows, setRows] = useState<MappingRow[]>(() => (sp ? rowsFromMapping(sp.attribute_mapping) : [{ claim: 'email', field: 'email' }]));
  const [localProblem, setLocalProblem] = useState<Problem>();
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const mapping = mappingFromRows(rows);
    if ('error' in mapping) {
      setLocalProblem({ status: 0, code: 'validation_failed', message: mapping.error, fields: { attribute_mapping: [mapping.error] } });
      return;
    }
    setLocalProblem(undefined);
    const body = partial<SpInput>({
      name,
      sp_entity_id: entityId,
      acs_url: acsUrl,
      name_id_format: format as SpInput['name_id_format'],
      name_id_attribute: nameIdField as SpInput['name_id_attribute'],
      sign_assertions: sign,
      attribute_mapping: mapping.mapping as SpInput['attribute_mapping'],
      default_relay_state: (relay || null) as SpInput['default_relay_state'],
      sp_cert_pem: (cert.trim() || null) as SpInput['sp_cert_pem'],
    });
    const saved = await action.run(() =>
      sp
        ? call(api.PUT('/developer/saml/sps/{id}/', { params: { path: { id: sp.id } }, body }))
        : call(api.POST('/developer/saml/sps/', { body: { ...body, workspace_id: workspaceId } })),
    );
    if (saved) onDone();
  };
  const problem = localProblem ?? action.problem;
  const setRow = (index: number, row: Partial<MappingRow>) => setRows(rows.map((r, i) => (i === index ? { ...r, ...row } : r)));

  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label={sp ? `Edit ${sp.name}` : 'New service provider'} noValidate>
      <h3>{sp ? `Edit ${sp.name}` : 'New service provider'}</h3>
      <TextField label="Name" name="name" {...bind(name, setName)} problem={problem} autoFocus />
      <TextField label="Entity ID" name="sp_entity_id" {...bind(entityId, setEntityId)} problem={problem} required />
      <TextField
        label="ACS URL"
        name="acs_url"
        type="url"
        {...bind(acsUrl, setAcsUrl)}
        problem={problem}
        required
        hint="https (http only for localhost)"
      />
      <div className="two-col">
        <SelectField label="NameID format" name="name_id_format" {...bind(format, setFormat)} problem={problem}>
          {NAME_ID_FORMATS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <SelectField label="NameID value" name="name_id_attribute" {...bind(nameIdField, setNameIdField)} problem={problem}>
          <option value="email">email</option>
          <option value="id">id</option>
        </SelectField>
      </div>
      <div className="field">
        <label>
          <input type="checkbox" checked={sign} onChange={(e) => setSign(e.target.checked)} /> Sign assertions (otherwise the response is
          signed)
        </label>
      </div>
      <fieldset className="card">
        <legend>Attribute mapping</legend>
        <p className="hint">Attribute name sent to the application → user field.</p>
        {rows.map((row, index) => (
          <div className="row wrap" key={index}>
            <TextField label={`Attribute ${index + 1} name`} value={row.claim} onChange={(e) => setRow(index, { claim: e.target.value })} />
            <SelectField
              label={`Attribute ${index + 1} field`}
              value={row.field}
              onChange={(e) => setRow(index, { field: e.target.value as UserField })}
            >
              {USER_FIELDS.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </SelectField>
            <button
              type="button"
              className="secondary small"
              onClick={() => setRows(rows.filter((_, i) => i !== index))}
              aria-label={`Remove attribute ${index + 1}`}
            >
              Remove
            </button>
          </div>
        ))}
        <button type="button" className="secondary small" onClick={() => setRows([...rows, { claim: '', field: 'email' }])}>
          Add attribute
        </button>
        {fieldMessages(problem, 'attribute_mapping').length ? (
          <p className="field-error">{fieldMessages(problem, 'attribute_mapping').join('; ')}</p>
        ) : null}
      </fieldset>
      <TextField label="Default relay state (optional)" name="default_relay_state" {...bind(relay, setRelay)} problem={problem} />
      <TextArea label="SP certificate PEM (optional)" name="sp_cert_pem" {...bind(cert, setCert)} problem={problem} className="mono" />
      <FormFooter problem={problem} busy={action.busy} submit={sp ? 'Save' : 'Create'} onCancel={onDone} />
    </form>
  );
}

/** The service's built-in test SP registered in one click, then a link that starts a real SP-initiated sign-in. */
function TestSpCard({ workspaceId, onRegistered }: { workspaceId: string; onRegistered: (created: boolean) => void }) {
  const action = useAction();
  const [registration, setRegistration] = useState<TestSpRegistration>();
  const register = async () => {
    const result = await action.run(() => registerTestSp(workspaceId));
    if (result) {
      setRegistration(result);
      onRegistered(result.created);
    }
  };
  return (
    <div className="card">
      <h2>Try it with the test SP</h2>
      <p>
        A service provider built into this service (development only) that shows the assertion it receives and each check an SP makes on it.
      </p>
      {registration ? (
        <p role="status">
          {registration.created ? 'Registered' : 'Already registered'} as {registration.sp.name}.{' '}
          <a href={registration.start_url} target="_blank" rel="noreferrer">
            Sign in at the test SP
          </a>
        </p>
      ) : (
        <button type="button" className="secondary" onClick={() => void register()} disabled={action.busy}>
          Register the test SP
        </button>
      )}
      <ErrorBanner problem={action.problem} />
    </div>
  );
}
