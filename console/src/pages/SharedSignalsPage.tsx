import { useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api';
import { formatTime } from '../logic/format';
import { deliveryName, eventName, setCounts, STREAM_TONE } from '../logic/ssf';
import { bind, confirmThenRun, FormFooter, listOf, ListState, PageHead, RowButton } from '../ui/blocks';
import { Badge, CopyButton, ErrorBanner, SecretOnce, SelectField, TextField, useAction, useConfirm, useLoad } from '../ui/kit';
import type { SectionProps } from './WorkspacePage';

type Receiver = Schemas['SsfReceiver'];
type Created = Schemas['SsfReceiverCreated'];

/**
 * Shared Signals receivers of a workspace (SSF 1.0, CAEP, RISC): register one (its client secret
 * shown once), see its stream's status, delivery and last delivery, delete it.
 */
export function SharedSignalsPage({ workspaceId }: SectionProps) {
  const list = useLoad(
    () => call(api.GET('/developer/ssf/receivers/', { params: { query: { workspace_id: workspaceId } } })),
    [workspaceId],
  );
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<Created>();
  const action = useAction();
  const confirm = useConfirm();
  const configuration = `${window.location.origin}/.well-known/ssf-configuration`;

  const remove = async (receiver: Receiver) => {
    const done = await confirmThenRun(
      confirm,
      action,
      [
        `Delete the receiver ${receiver.name}?`,
        <p>Its stream and the signals it has not received go with it, and its access tokens stop working.</p>,
        'Delete',
      ],
      () => call(api.DELETE('/developer/ssf/receivers/{id}/', { params: { path: { id: receiver.id } } })).then(() => true),
    );
    if (done) {
      if (created?.id === receiver.id) setCreated(undefined);
      void list.reload();
    }
  };

  return (
    <section>
      <PageHead heading={<h1>Shared Signals</h1>} open={open} create="New receiver" onCreate={() => setOpen(true)}>
        <button type="button" className="secondary" onClick={() => void list.reload()} disabled={list.loading}>
          Refresh
        </button>
      </PageHead>
      <p className="lead">
        Apps that register here get this workspace&rsquo;s security events as signed tokens (OpenID Shared Signals: account disabled or
        enabled, sessions revoked, credentials changed), pushed to them or polled. A receiver signs in with its client credentials (scope{' '}
        <code>ssf</code>) and manages its stream at the endpoints the configuration names.
      </p>
      <p className="row wrap">
        <span>
          Configuration: <code>{configuration}</code>
        </span>
        <CopyButton value={configuration} what="configuration URL" />
      </p>
      {open ? (
        <NewReceiverForm
          workspaceId={workspaceId}
          onCancel={() => setOpen(false)}
          onCreated={(receiver) => {
            setOpen(false);
            setCreated(receiver);
            void list.reload();
          }}
        />
      ) : null}
      {created ? (
        <div className="card" role="region" aria-label={`Credentials of ${created.name}`}>
          <p className="row wrap">
            <span>
              Client ID: <code>{created.client_id}</code>
            </span>
            <CopyButton value={created.client_id} what="client ID" />
          </p>
          <SecretOnce label="Client secret" value={created.client_secret} onDone={() => setCreated(undefined)} />
        </div>
      ) : null}
      <ErrorBanner problem={action.problem} />
      <ListState {...listOf(list)} empty="No receivers yet.">
        {(receivers) =>
          receivers.map((receiver) => (
            <article className="card" key={receiver.id} aria-label={`Receiver ${receiver.name}`}>
              <div className="page-head">
                <h2>{receiver.name}</h2>
                {receiver.stream ? (
                  <Badge tone={STREAM_TONE[receiver.stream.status]}>{receiver.stream.status}</Badge>
                ) : (
                  <Badge tone="neutral">no stream yet</Badge>
                )}
              </div>
              <dl className="details">
                <dt>Client ID</dt>
                <dd>
                  <code>{receiver.client_id}</code>
                </dd>
                <dt>Subjects</dt>
                <dd>{receiver.default_subjects === 'ALL' ? 'everyone in the workspace, except those it removes' : 'only those it adds'}</dd>
                <dt>Registered</dt>
                <dd>{formatTime(receiver.created_at)}</dd>
              </dl>
              <Stream receiver={receiver} />
              <div className="actions">
                <RowButton danger label={`Delete ${receiver.name}`} onClick={() => void remove(receiver)}>
                  Delete
                </RowButton>
              </div>
            </article>
          ))
        }
      </ListState>
      {confirm.dialog}
    </section>
  );
}

function Stream({ receiver }: { receiver: Receiver }) {
  const stream = receiver.stream;
  if (!stream) {
    return <p className="muted">The receiver has not created its stream yet: nothing is sent to it until it does.</p>;
  }
  return (
    <section aria-label={`Stream of ${receiver.name}`}>
      <h3>Stream</h3>
      <dl className="details">
        <dt>Status</dt>
        <dd>
          {stream.status}
          {stream.status_reason ? ` (${stream.status_reason})` : ''}
        </dd>
        <dt>Delivery</dt>
        <dd>
          {deliveryName(stream.delivery_method)}
          {stream.endpoint_url ? (
            <>
              {' '}
              to <code>{stream.endpoint_url}</code>
            </>
          ) : null}
        </dd>
        <dt>Events</dt>
        <dd>{stream.events_requested.length ? stream.events_requested.map(eventName).join(', ') : 'none requested'}</dd>
        <dt>Last delivery</dt>
        <dd>{stream.last_delivered_at ? formatTime(stream.last_delivered_at) : 'never'}</dd>
        <dt>Signals</dt>
        <dd>{setCounts(stream.sets)}</dd>
        {stream.last_error ? (
          <>
            <dt>Failing now</dt>
            <dd className="warning">{stream.last_error}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

function NewReceiverForm({
  workspaceId,
  onCreated,
  onCancel,
}: {
  workspaceId: string;
  onCreated: (receiver: Created) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState('');
  const [subjects, setSubjects] = useState<'NONE' | 'ALL'>('NONE');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await action.run(() =>
      call(api.POST('/developer/ssf/receivers/', { body: { workspace_id: workspaceId, name, default_subjects: subjects } })),
    );
    if (created) onCreated(created);
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label="New receiver" noValidate>
      <TextField
        label="Name"
        name="name"
        required
        autoFocus
        {...bind(name, setName)}
        problem={action.problem}
        placeholder="Slack access revocation"
      />
      <SelectField
        label="People its stream carries"
        name="default_subjects"
        value={subjects}
        onChange={(e) => setSubjects(e.target.value as 'NONE' | 'ALL')}
        problem={action.problem}
      >
        <option value="NONE">Only the people the receiver adds</option>
        <option value="ALL">Everyone in the workspace, except those it removes</option>
      </SelectField>
      <FormFooter problem={action.problem} busy={action.busy} submit="Create receiver" onCancel={onCancel} />
    </form>
  );
}
