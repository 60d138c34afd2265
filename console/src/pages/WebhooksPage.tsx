import { useEffect, useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api';
import { formatTime } from '../logic/format';
import { bind, confirmThenRun, FormFooter, listOf, ListState, ListTable, PageHead, RowButton } from '../ui/blocks';
import { Badge, ErrorBanner, SecretOnce, TextField, useAction, useConfirm, useLoad } from '../ui/kit';
import type { SectionProps } from './WorkspacePage';

type Webhook = Schemas['Webhook'];
type EventType = Schemas['CreateWebhookDto']['event_types'][number];

/** Event types a webhook can subscribe to, from the API description (the audit catalog). */
const COMMON_EVENTS: EventType[] = [
  'scim_user_create',
  'scim_user_update',
  'scim_user_delete',
  'scim_group_create',
  'scim_group_update',
  'scim_group_delete',
  'register',
  'login_success',
  'login_failure',
  'saml_sso_success',
  'saml_sso_failure',
  'anomaly_detected',
  'scim_token_create',
  'scim_token_revoke',
  'saml_sp_create',
  'managed_database_create',
];

const STATUS_TONE = { pending: 'warn', succeeded: 'ok', failed: 'bad' } as const;

export function WebhooksPage({ workspaceId }: SectionProps) {
  const list = useLoad(() => call(api.GET('/developer/webhooks/', { params: { query: { workspace_id: workspaceId } } })), [workspaceId]);
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<{ label: string; value: string }>();
  const [shown, setShown] = useState<string>();
  const action = useAction();
  const confirm = useConfirm();

  const patch = async (hook: Webhook, body: Schemas['UpdateWebhookDto']) => {
    if (await action.run(() => call(api.PATCH('/developer/webhooks/{id}/', { params: { path: { id: hook.id } }, body })))) {
      void list.reload();
    }
  };
  const rotate = async (hook: Webhook) => {
    const rotated = await confirmThenRun(
      confirm,
      action,
      ['Rotate the signing secret?', <p>Deliveries are signed with the new secret from now on; update your receiver with it.</p>, 'Rotate'],
      () => call(api.POST('/developer/webhooks/{id}/rotate-secret/', { params: { path: { id: hook.id } } })),
    );
    if (rotated) setSecret({ label: 'New signing secret', value: (rotated as Schemas['WebhookWithSecret']).secret });
  };
  const remove = async (hook: Webhook) => {
    const done = await confirmThenRun(
      confirm,
      action,
      ['Delete this endpoint?', <p>Nothing more will be delivered to {hook.url}.</p>, 'Delete'],
      () => call(api.DELETE('/developer/webhooks/{id}/', { params: { path: { id: hook.id } } })).then(() => true),
    );
    if (done) void list.reload();
  };

  return (
    <section>
      <PageHead heading={<h1>Webhooks</h1>} open={open} create="New endpoint" onCreate={() => setOpen(true)} />
      <p className="lead">Audit events of this workspace, signed (Standard Webhooks) and delivered to your HTTPS endpoints with retries.</p>
      {open ? (
        <NewWebhookForm
          workspaceId={workspaceId}
          onCancel={() => setOpen(false)}
          onCreated={(created) => {
            setOpen(false);
            setSecret({ label: 'Signing secret', value: created.secret });
            setShown(created.id);
            void list.reload();
          }}
        />
      ) : null}
      {secret ? <SecretOnce label={secret.label} value={secret.value} onDone={() => setSecret(undefined)} /> : null}
      <ErrorBanner problem={action.problem} />
      <ListState {...listOf(list)} empty="No webhook endpoints yet.">
        {(hooks) =>
          hooks.map((hook) => (
            <article className="card" key={hook.id} aria-label={`Endpoint ${hook.url}`}>
              <div className="page-head">
                <h2 className="mono">{hook.url}</h2>
                {hook.is_active ? (
                  <Badge tone="ok">enabled</Badge>
                ) : (
                  <Badge tone="neutral">disabled{hook.disabled_reason ? `: ${hook.disabled_reason}` : ''}</Badge>
                )}
              </div>
              {hook.description ? <p>{hook.description}</p> : null}
              <p className="muted">Events: {hook.event_types.join(', ')}</p>
              <div className="actions">
                <button
                  type="button"
                  className="secondary small"
                  onClick={() => setShown(shown === hook.id ? undefined : hook.id)}
                  aria-expanded={shown === hook.id}
                >
                  Deliveries
                </button>
                <RowButton onClick={() => void patch(hook, { is_active: !hook.is_active })}>
                  {hook.is_active ? 'Disable' : 'Enable'}
                </RowButton>
                <RowButton onClick={() => void rotate(hook)}>Rotate secret</RowButton>
                <RowButton danger onClick={() => void remove(hook)}>
                  Delete
                </RowButton>
              </div>
              {shown === hook.id ? <Deliveries hook={hook} /> : null}
            </article>
          ))
        }
      </ListState>
      {confirm.dialog}
    </section>
  );
}

function NewWebhookForm({
  workspaceId,
  onCreated,
  onCancel,
}: {
  workspaceId: string;
  onCreated: (hook: Schemas['WebhookWithSecret']) => void;
  onCancel: () => void;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [all, setAll] = useState(true);
  const [events, setEvents] = useState<EventType[]>(['scim_user_create']);
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await action.run(() =>
      call(
        api.POST('/developer/webhooks/', {
          body: { workspace_id: workspaceId, url, event_types: all ? ['*'] : events, ...(description ? { description } : {}) },
        }),
      ),
    );
    if (created) onCreated(created as Schemas['WebhookWithSecret']);
  };
  const toggle = (name: EventType) => setEvents(events.includes(name) ? events.filter((e) => e !== name) : [...events, name]);
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label="New webhook endpoint" noValidate>
      <TextField
        label="Endpoint URL"
        name="url"
        type="url"
        required
        autoFocus
        {...bind(url, setUrl)}
        problem={action.problem}
        placeholder="https://hooks.example.com/identity"
      />
      <TextField label="Description" name="description" {...bind(description, setDescription)} problem={action.problem} />
      <fieldset>
        <legend>Events</legend>
        <label>
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> All events
        </label>
        {!all ? (
          <div className="checks">
            {COMMON_EVENTS.map((name) => (
              <label key={name}>
                <input type="checkbox" checked={events.includes(name)} onChange={() => toggle(name)} /> {name}
              </label>
            ))}
          </div>
        ) : null}
      </fieldset>
      <FormFooter problem={action.problem} busy={action.busy} submit="Create endpoint" onCancel={onCancel} />
    </form>
  );
}

function Deliveries({ hook }: { hook: Webhook }) {
  const list = useLoad(
    () => call(api.GET('/developer/webhooks/{id}/deliveries/', { params: { path: { id: hook.id }, query: { limit: 20 } } })),
    [hook.id],
  );
  const action = useAction();
  const { reload } = list;
  // Deliveries change on their own (attempts, retries): refresh while the list is open.
  useEffect(() => {
    const timer = window.setInterval(() => void reload(), 3000);
    return () => window.clearInterval(timer);
  }, [reload]);
  const test = async () => {
    if (await action.run(() => call(api.POST('/developer/webhooks/{id}/test/', { params: { path: { id: hook.id } } })))) void reload();
  };
  const retry = async (id: string) => {
    if (await action.run(() => call(api.POST('/developer/webhook-deliveries/{id}/retry/', { params: { path: { id } } })))) void reload();
  };
  return (
    <div>
      <div className="page-head">
        <h3>Recent deliveries</h3>
        <button type="button" className="small" onClick={() => void test()} disabled={action.busy}>
          Send test event
        </button>
      </div>
      <ErrorBanner problem={action.problem ?? list.problem} />
      <ListTable
        items={list.data?.results}
        empty="No deliveries yet."
        caption={`Deliveries to ${hook.url}`}
        columns={['Created', 'Event', 'Status', 'Attempts', 'Response']}
        actions
        row={(d) => (
          <tr key={d.id}>
            <td>{formatTime(d.created_at)}</td>
            <td>
              <code>{d.event_type}</code>
            </td>
            <td>
              <Badge tone={STATUS_TONE[d.status]}>{d.status}</Badge>
            </td>
            <td>{d.attempts}</td>
            <td>
              {d.last_response_code ?? '—'}
              {d.last_error ? <div className="muted">{d.last_error}</div> : null}
            </td>
            <td>{d.status === 'failed' ? <RowButton onClick={() => void retry(d.id)}>Retry</RowButton> : null}</td>
          </tr>
        )}
      />
    </div>
  );
}
