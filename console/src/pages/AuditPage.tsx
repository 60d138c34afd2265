import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, call, problemOf, type Schemas } from '../api';
import { auditQuery, describeVerification, EMPTY_FILTERS, type AuditFilters } from '../logic/audit';
import { formatTime } from '../logic/format';
import type { Problem } from '../logic/problem';
import { Badge, download, Empty, ErrorBanner, Loading, Modal, SelectField, TextField, useAction } from '../ui/kit';
import type { SectionProps } from './WorkspacePage';

type AuditEvent = Schemas['AuditEvent'];

const SEVERITY_TONE = { info: 'neutral', warn: 'warn', error: 'bad' } as const;

export function AuditPage({ workspaceId }: SectionProps) {
  const [draft, setDraft] = useState<AuditFilters>(EMPTY_FILTERS);
  const [filters, setFilters] = useState<AuditFilters>(EMPTY_FILTERS);
  const [events, setEvents] = useState<AuditEvent[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [problem, setProblem] = useState<Problem>();
  const [selected, setSelected] = useState<AuditEvent>();
  const [verification, setVerification] = useState<{ ok: boolean; text: string }>();
  const verify = useAction();
  const exporter = useAction();

  const fetchPage = useCallback(
    async (after: string | null) => {
      setLoading(true);
      setProblem(undefined);
      try {
        const page = await call(
          api.GET('/developer/audit/', {
            params: { query: { workspace_id: workspaceId, limit: 50, ...auditQuery(filters), ...(after ? { cursor: after } : {}) } },
          }),
        );
        setEvents((before) => (after ? [...(before ?? []), ...page.results] : page.results));
        setCursor(page.next_cursor ?? null);
      } catch (error) {
        setProblem(problemOf(error));
      } finally {
        setLoading(false);
      }
    },
    [workspaceId, filters],
  );

  useEffect(() => {
    void fetchPage(null);
  }, [fetchPage]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
  };
  const set = (key: keyof AuditFilters) => (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value });

  const runVerify = async () => {
    const { from, to } = auditQuery(filters);
    const result = await verify.run(() =>
      call(
        api.GET('/developer/audit/verify/', {
          params: { query: { workspace_id: workspaceId, ...(from ? { from } : {}), ...(to ? { to } : {}) } },
        }),
      ),
    );
    if (result) setVerification(describeVerification(result));
  };

  const runExport = async () => {
    const { from, to } = auditQuery(filters);
    const text = await exporter.run(() =>
      call(
        api.GET('/developer/audit/export/', {
          params: { query: { workspace_id: workspaceId, ...(from ? { from } : {}), ...(to ? { to } : {}) } },
          parseAs: 'text',
        }),
      ),
    );
    if (text !== undefined) download(`audit-${workspaceId}.ndjson`, String(text), 'application/x-ndjson');
  };

  return (
    <section>
      <div className="page-head">
        <h1>Audit log</h1>
        <div className="actions">
          <button type="button" className="secondary" onClick={() => void runExport()} disabled={exporter.busy}>
            Export NDJSON
          </button>
          <button type="button" onClick={() => void runVerify()} disabled={verify.busy}>
            Verify
          </button>
        </div>
      </div>
      <p className="lead">Every change in this workspace, newest first, in a hash chain you can verify.</p>
      <ErrorBanner problem={verify.problem ?? exporter.problem} />
      {verification ? (
        <p className={verification.ok ? 'notice' : 'error'} role="status">
          {verification.text}
        </p>
      ) : null}
      <details className="card">
        <summary>Filters</summary>
        <form onSubmit={apply} aria-label="Audit filters">
          <div className="row wrap">
            <TextField
              label="Event type"
              name="event_type"
              value={draft.event_type}
              onChange={set('event_type')}
              placeholder="scim_user_create"
            />
            <SelectField label="Severity" name="severity" value={draft.severity} onChange={set('severity')}>
              <option value="">Any</option>
              <option value="info">info</option>
              <option value="warn">warn</option>
              <option value="error">error</option>
            </SelectField>
            <TextField
              label="Actor type"
              name="actor_type"
              value={draft.actor_type}
              onChange={set('actor_type')}
              placeholder="scim_token"
            />
            <TextField label="Actor ID" name="actor_id" value={draft.actor_id} onChange={set('actor_id')} />
            <TextField label="Target ID" name="target_id" value={draft.target_id} onChange={set('target_id')} />
            <TextField label="IP address" name="ip_address" value={draft.ip_address} onChange={set('ip_address')} />
            <TextField label="From" name="from" type="datetime-local" value={draft.from} onChange={set('from')} />
            <TextField label="To" name="to" type="datetime-local" value={draft.to} onChange={set('to')} />
          </div>
          <div className="actions">
            <button type="submit">Apply filters</button>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setDraft(EMPTY_FILTERS);
                setFilters(EMPTY_FILTERS);
              }}
            >
              Clear
            </button>
          </div>
        </form>
      </details>
      <ErrorBanner problem={problem} />
      {events && events.length === 0 && !loading ? <Empty>No events match.</Empty> : null}
      {events && events.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Audit events</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Severity</th>
                <th scope="col">Actor</th>
                <th scope="col">Target</th>
                <th scope="col">IP</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={e.id}>
                  <td>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => setSelected(e)}
                      aria-label={`Details of ${e.event_type} at ${formatTime(e.created_at)}`}
                    >
                      {formatTime(e.created_at)}
                    </button>
                  </td>
                  <td>
                    <code>{e.event_type}</code>
                    <div className="muted">{e.message}</div>
                  </td>
                  <td>
                    <Badge tone={SEVERITY_TONE[e.severity]}>{e.severity}</Badge>
                  </td>
                  <td>
                    {e.actor_type}
                    {e.actor_email ? <div className="muted">{e.actor_email}</div> : null}
                    <Label value={e.metadata.actor_label} />
                  </td>
                  <td>
                    {e.target_type ? `${e.target_type} ${e.target_id ?? ''}` : '—'}
                    <Label value={e.metadata.target_email} />
                  </td>
                  <td>{e.ip_address ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {loading ? <Loading what="Loading events…" /> : null}
      {cursor && !loading ? (
        <button type="button" className="secondary" onClick={() => void fetchPage(cursor)}>
          Load more
        </button>
      ) : null}
      {selected ? (
        <Modal title={selected.event_type} onClose={() => setSelected(undefined)} variant="drawer">
          <dl className="details">
            <dt>Time</dt>
            <dd>{selected.created_at}</dd>
            <dt>Message</dt>
            <dd>{selected.message}</dd>
            <dt>Severity</dt>
            <dd>{selected.severity}</dd>
            <dt>Actor</dt>
            <dd>
              {selected.actor_type} {selected.actor_id ?? ''} {selected.actor_email ?? ''}
              <Label value={selected.metadata.actor_label} />
            </dd>
            <dt>Target</dt>
            <dd>
              {selected.target_type ? `${selected.target_type} ${selected.target_id ?? ''}` : '—'}
              <Label value={selected.metadata.target_email} />
            </dd>
            <dt>IP address</dt>
            <dd>{selected.ip_address ?? '—'}</dd>
            <dt>User agent</dt>
            <dd>{selected.user_agent ?? '—'}</dd>
            <dt>Request ID</dt>
            <dd>{selected.request_id ?? '—'}</dd>
            <dt>Event ID</dt>
            <dd>{selected.id}</dd>
          </dl>
          <h3>Metadata</h3>
          <pre>{JSON.stringify(selected.metadata, null, 2)}</pre>
        </Modal>
      ) : null}
    </section>
  );
}

/** A readable name the event's metadata carries beside an id (actor_label, target_email), when present. */
function Label({ value }: { value: unknown }) {
  return typeof value === 'string' && value ? <div className="muted">{value}</div> : null;
}
