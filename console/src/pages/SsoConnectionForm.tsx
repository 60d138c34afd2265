import { useState, type FormEvent, type ReactNode } from 'react';
import { api, call, type Schemas } from '../api';
import { lines } from '../logic/format';
import { wordList } from '../logic/sso';
import { bind, FormFooter } from '../ui/blocks';
import { SelectField, TextArea, TextField, useAction } from '../ui/kit';

export type Connection = Schemas['SsoConnection'];
type CreateBody = Schemas['CreateSsoConnectionDto'];
type UpdateBody = Schemas['UpdateSsoConnectionDto'];
type SamlBody = Schemas['SamlSettingsDto'];
type Protocol = Connection['protocol'];
type AuthMethod = Schemas['OidcSettingsDto']['token_endpoint_auth_method'];

const AUTH_METHODS: ReadonlyArray<readonly [AuthMethod, string]> = [
  ['client_secret_basic', 'Client secret (HTTP Basic)'],
  ['client_secret_post', 'Client secret (in the form body)'],
  ['private_key_jwt', 'Private key JWT (our key; no secret)'],
];

/** Where a SAML connection's IdP settings come from: its metadata (pasted or at a URL), or typed field by field. */
type SamlSource = 'xml' | 'url' | 'manual';

/**
 * The generated client marks fields with a server default (jit, allow_unsolicited…) as required; the API
 * takes them as optional, and a partial body is what the console means to send.
 */
const partial = <T,>(body: Partial<T>) => body as T;

/**
 * Creates a connection (protocol chosen here) or edits one (protocol fixed). An edit sends every field the
 * form shows; an empty client secret keeps the stored one.
 */
export function SsoConnectionForm({
  workspaceId,
  connection,
  onDone,
}: {
  workspaceId: string;
  connection?: Connection;
  onDone: (saved?: Connection) => void;
}) {
  const [name, setName] = useState(connection?.name ?? '');
  const [protocol, setProtocol] = useState<Protocol>(connection?.protocol ?? 'oidc');
  const [domains, setDomains] = useState(connection?.domains.join(', ') ?? '');
  const [jit, setJit] = useState(connection?.jit ?? false);
  const [trustMfa, setTrustMfa] = useState(connection?.trust_upstream_mfa ?? false);
  const [issuer, setIssuer] = useState(connection?.oidc?.issuer ?? '');
  const [clientId, setClientId] = useState(connection?.oidc?.client_id ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [authMethod, setAuthMethod] = useState<AuthMethod>(connection?.oidc?.token_endpoint_auth_method ?? 'client_secret_basic');
  const [scopes, setScopes] = useState((connection?.oidc?.scopes ?? ['email', 'profile']).filter((s) => s !== 'openid').join(' '));
  const [source, setSource] = useState<SamlSource>(connection ? 'manual' : 'xml');
  const [metadataXml, setMetadataXml] = useState('');
  const [metadataUrl, setMetadataUrl] = useState('');
  const [entityId, setEntityId] = useState(connection?.saml?.idp_entity_id ?? '');
  const [ssoUrl, setSsoUrl] = useState(connection?.saml?.idp_sso_url ?? '');
  const [certificate, setCertificate] = useState(connection?.saml?.idp_certificates[0] ?? '');
  const [nextCertificate, setNextCertificate] = useState(connection?.saml?.idp_certificates[1] ?? '');
  const action = useAction();
  const problem = action.problem;

  const samlSettings = (): SamlBody => {
    // The server reads the IdP's entity id, SSO URL and certificates from the metadata (pasted, or fetched once).
    if (source === 'xml') return partial<SamlBody>({ metadata_xml: metadataXml });
    if (source === 'url') return partial<SamlBody>({ metadata_url: metadataUrl.trim() });
    const certificates = [certificate, nextCertificate].map((pem) => lines(pem).join('\n')).filter(Boolean);
    return partial<SamlBody>({ idp_entity_id: entityId.trim(), idp_sso_url: ssoUrl.trim(), idp_certificates: certificates });
  };
  const oidcSettings = (): Schemas['OidcSettingsDto'] => ({
    issuer: issuer.trim(),
    client_id: clientId.trim(),
    token_endpoint_auth_method: authMethod,
    ...(clientSecret && authMethod !== 'private_key_jwt' ? { client_secret: clientSecret } : {}),
    scopes: wordList(scopes).filter((s) => s !== 'openid'),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const common = {
      name: name.trim(),
      domains: wordList(domains, true),
      jit,
      trust_upstream_mfa: trustMfa,
      ...(protocol === 'oidc' ? { oidc: oidcSettings() } : { saml: samlSettings() }),
    };
    const saved = await action.run(() =>
      connection
        ? call(
            api.PATCH('/developer/external-providers/{id}/', {
              params: { path: { id: connection.id } },
              body: partial<UpdateBody>(common),
            }),
          )
        : call(
            api.POST('/developer/external-providers/', { body: partial<CreateBody>({ ...common, workspace_id: workspaceId, protocol }) }),
          ),
    );
    if (saved) onDone(saved);
  };

  const title = connection ? `Edit ${connection.name}` : 'New SSO connection';
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label={title} noValidate>
      <h2>{title}</h2>
      <TextField label="Name" name="name" {...bind(name, setName)} problem={problem} placeholder="Acme Okta" autoFocus />
      {connection ? null : (
        <Choice
          legend="Protocol"
          value={protocol}
          set={setProtocol}
          options={[
            ['oidc', 'OpenID Connect'],
            ['saml', 'SAML 2.0'],
          ]}
        />
      )}
      {protocol === 'oidc' ? (
        <>
          <TextField
            label="Issuer URL"
            name="oidc.issuer"
            type="url"
            {...bind(issuer, setIssuer)}
            problem={problem}
            placeholder="https://acme.okta.com"
            hint="Its discovery document is read from {issuer}/.well-known/openid-configuration."
          />
          <TextField label="Client ID" name="oidc.client_id" {...bind(clientId, setClientId)} problem={problem} autoComplete="off" />
          <div className="two-col">
            <SelectField
              label="Client authentication"
              name="oidc.token_endpoint_auth_method"
              value={authMethod}
              onChange={(e) => setAuthMethod(e.target.value as AuthMethod)}
              problem={problem}
            >
              {AUTH_METHODS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </SelectField>
            {authMethod === 'private_key_jwt' ? (
              <p className="hint">Register the connection's JWKS URL (shown once it is created) at the provider instead of a secret.</p>
            ) : (
              <TextField
                label="Client secret"
                name="oidc.client_secret"
                type="password"
                {...bind(clientSecret, setClientSecret)}
                problem={problem}
                autoComplete="new-password"
                hint={
                  connection?.oidc?.has_client_secret
                    ? 'Stored (never shown); leave empty to keep it.'
                    : 'Stored encrypted, never shown again.'
                }
              />
            )}
          </div>
          <TextField
            label="Scopes"
            name="oidc.scopes"
            {...bind(scopes, setScopes)}
            problem={problem}
            hint="Besides openid, separated by spaces."
          />
        </>
      ) : (
        <SamlFields
          source={source}
          setSource={setSource}
          problem={problem}
          fields={{
            metadataXml: [metadataXml, setMetadataXml],
            metadataUrl: [metadataUrl, setMetadataUrl],
            entityId: [entityId, setEntityId],
            ssoUrl: [ssoUrl, setSsoUrl],
            certificate: [certificate, setCertificate],
            nextCertificate: [nextCertificate, setNextCertificate],
          }}
        />
      )}
      <TextField
        label="Email domains"
        name="domains"
        {...bind(domains, setDomains)}
        problem={problem}
        placeholder="acme.com, acme.co.uk"
        hint="Separated by commas or spaces. Each is verified by a DNS TXT record before sign-ins are routed here."
      />
      <Checkbox checked={jit} set={setJit}>
        Create an account on the first sign-in of someone not in the directory (just-in-time)
      </Checkbox>
      <Checkbox checked={trustMfa} set={setTrustMfa}>
        Count the identity provider's multi-factor sign-in as ours
      </Checkbox>
      <FormFooter problem={problem} busy={action.busy} submit={connection ? 'Save' : 'Create'} onCancel={() => onDone()} />
    </form>
  );
}

type Pair = [string, (value: string) => void];

function SamlFields({
  source,
  setSource,
  problem,
  fields,
}: {
  source: SamlSource;
  setSource: (source: SamlSource) => void;
  problem: ReturnType<typeof useAction>['problem'];
  fields: Record<'metadataXml' | 'metadataUrl' | 'entityId' | 'ssoUrl' | 'certificate' | 'nextCertificate', Pair>;
}) {
  const readFile = async (file: File | undefined) => {
    if (file) fields.metadataXml[1](await file.text());
  };
  return (
    <>
      <Choice
        legend="Identity provider settings"
        value={source}
        set={setSource}
        options={[
          ['xml', 'Paste metadata XML'],
          ['url', 'Metadata URL'],
          ['manual', 'Enter by hand'],
        ]}
      />
      {source === 'xml' ? (
        <>
          <TextArea label="IdP metadata XML" name="saml.metadata_xml" {...bind(...fields.metadataXml)} problem={problem} className="mono" />
          <TextField
            label="Or read it from a file"
            type="file"
            accept=".xml,application/xml,text/xml"
            onChange={(e) => void readFile(e.target.files?.[0])}
          />
        </>
      ) : null}
      {source === 'url' ? (
        <TextField
          label="IdP metadata URL"
          name="saml.metadata_url"
          type="url"
          {...bind(...fields.metadataUrl)}
          problem={problem}
          hint="https; read once now (the certificates do not follow later changes)."
        />
      ) : null}
      {source === 'manual' ? (
        <>
          <TextField label="IdP entity ID" name="saml.idp_entity_id" {...bind(...fields.entityId)} problem={problem} />
          <TextField label="IdP SSO URL" name="saml.idp_sso_url" type="url" {...bind(...fields.ssoUrl)} problem={problem} />
          <IdpCertificates current={fields.certificate} next={fields.nextCertificate} problem={problem} />
        </>
      ) : null}
    </>
  );
}

/**
 * The IdP's signing certificate and the next one, both trusted during a key rollover: the server reads
 * them as saml.idp_certificates, so a problem with either is shown under the first.
 */
function IdpCertificates({ current, next, problem }: { current: Pair; next: Pair; problem: ReturnType<typeof useAction>['problem'] }) {
  return (
    <>
      <TextArea
        label="IdP signing certificate (PEM)"
        name="saml.idp_certificates"
        {...bind(...current)}
        problem={problem}
        className="mono"
      />
      <TextArea
        label="Next IdP certificate (PEM, optional)"
        {...bind(...next)}
        className="mono"
        hint="During a key rollover both are trusted."
      />
    </>
  );
}

/** A group of radio buttons under a legend. */
function Choice<T extends string>({
  legend,
  value,
  set,
  options,
}: {
  legend: string;
  value: T;
  set: (value: T) => void;
  options: ReadonlyArray<readonly [T, string]>;
}) {
  return (
    <fieldset className="choice">
      <legend>{legend}</legend>
      {options.map(([option, label]) => (
        <label key={option}>
          <input type="radio" name={legend} value={option} checked={value === option} onChange={() => set(option)} /> {label}
        </label>
      ))}
    </fieldset>
  );
}

function Checkbox({ checked, set, children }: { checked: boolean; set: (checked: boolean) => void; children: ReactNode }) {
  return (
    <div className="field">
      <label>
        <input type="checkbox" checked={checked} onChange={(e) => set(e.target.checked)} /> {children}
      </label>
    </div>
  );
}
