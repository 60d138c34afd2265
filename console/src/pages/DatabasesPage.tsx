import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api';
import { formatBytes, formatTime, sparkline } from '../logic/format';
import { bind, confirmThenRun, FormFooter, listOf, ListState, ListTable, PageHead, RowButton } from '../ui/blocks';
import { Badge, CopyButton, ErrorBanner, Loading, SelectField, TextField, useAction, useConfirm, useLoad } from '../ui/kit';
import type { SectionProps } from './WorkspacePage';

type Database = Schemas['DatabaseResponse'];
type Engine = Database['engine'];

const STATUS_TONE = { creating: 'warn', available: 'ok', failed: 'bad', deleting: 'neutral' } as const;

export function DatabasesPage({ workspaceId }: SectionProps) {
  const list = useLoad(
    () => call(api.GET('/e/v1/developer/workspaces/{workspaceId}/databases/', { params: { path: { workspaceId: workspaceId } } })),
    [workspaceId],
  );
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<string>();
  const action = useAction();
  const confirm = useConfirm();
  const { reload } = list;
  const busy = list.data?.results.some((d) => d.status === 'creating' || d.status === 'deleting');
  // A database being created or deleted changes status on its own: poll until it settles.
  useEffect(() => {
    if (!busy) return;
    const timer = window.setInterval(() => void reload(), 2000);
    return () => window.clearInterval(timer);
  }, [busy, reload]);

  const remove = async (db: Database) => {
    const done = await confirmThenRun(
      confirm,
      action,
      [`Delete “${db.display_name}”?`, <p>The database and its data are dropped. Backups are deleted with it.</p>, 'Delete'],
      () => call(api.DELETE('/e/v1/developer/databases/{id}/', { params: { path: { id: db.id } } })),
    );
    if (done) void reload();
  };

  return (
    <section>
      <PageHead heading={<h1>Databases</h1>} open={open} create="New database" onCreate={() => setOpen(true)} />
      <p className="lead">Managed PostgreSQL, Redis and MongoDB databases for this workspace.</p>
      {open ? (
        <NewDatabaseForm
          workspaceId={workspaceId}
          onDone={(created) => {
            setOpen(false);
            if (created) setSelected(created.id);
            void reload();
          }}
        />
      ) : null}
      <ErrorBanner problem={action.problem} />
      <ListState {...listOf(list)} empty="No databases yet.">
        {(databases) =>
          databases.map((db) => (
            <article className="card" key={db.id} aria-label={`Database ${db.display_name}`}>
              <div className="page-head">
                <h2>{db.display_name}</h2>
                <Badge tone={STATUS_TONE[db.status]}>{db.status}</Badge>
              </div>
              <p className="muted">
                {db.engine} · <code>{db.db_name}</code> · {db.max_connections} connections · {db.max_storage_mb} MB
              </p>
              {db.error ? <p className="error">{db.error}</p> : null}
              <div className="actions">
                {db.status === 'available' ? (
                  <button
                    type="button"
                    className="secondary small"
                    onClick={() => setSelected(selected === db.id ? undefined : db.id)}
                    aria-expanded={selected === db.id}
                  >
                    Details
                  </button>
                ) : null}
                {db.status !== 'deleting' ? (
                  <RowButton danger onClick={() => void remove(db)}>
                    Delete
                  </RowButton>
                ) : null}
              </div>
              {selected === db.id && db.status === 'available' ? <DatabaseDetails db={db} /> : null}
            </article>
          ))
        }
      </ListState>
      {confirm.dialog}
    </section>
  );
}

function NewDatabaseForm({ workspaceId, onDone }: { workspaceId: string; onDone: (created?: Database) => void }) {
  const [name, setName] = useState('');
  const [engine, setEngine] = useState<Engine>('postgres');
  const [connections, setConnections] = useState('');
  const [storage, setStorage] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await action.run(() =>
      call(
        api.POST('/e/v1/developer/workspaces/{workspaceId}/databases/', {
          params: { path: { workspaceId } },
          body: {
            display_name: name,
            engine,
            ...(connections ? { max_connections: Number(connections) } : {}),
            ...(storage ? { max_storage_mb: Number(storage) } : {}),
          },
        }),
      ),
    );
    if (created) onDone(created);
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label="New database" noValidate>
      <div className="row wrap">
        <TextField label="Name" name="display_name" required autoFocus {...bind(name, setName)} problem={action.problem} />
        <SelectField
          label="Engine"
          name="engine"
          value={engine}
          onChange={(e) => setEngine(e.target.value as Engine)}
          problem={action.problem}
        >
          <option value="postgres">PostgreSQL</option>
          <option value="redis">Redis</option>
          <option value="mongodb">MongoDB</option>
        </SelectField>
        <TextField
          label="Max connections"
          name="max_connections"
          type="number"
          min={1}
          max={500}
          {...bind(connections, setConnections)}
          problem={action.problem}
          placeholder="20"
        />
        <TextField
          label="Max storage (MB)"
          name="max_storage_mb"
          type="number"
          min={16}
          {...bind(storage, setStorage)}
          problem={action.problem}
          placeholder="1024"
        />
      </div>
      {action.problem?.code === 'engine_unavailable' ? (
        <p className="hint">
          This engine is not configured on this server: its operator has to set it up (see docs/managed-databases.md). Choose another
          engine.
        </p>
      ) : null}
      <FormFooter problem={action.problem} busy={action.busy} submit="Create database" onCancel={() => onDone()} />
    </form>
  );
}

interface Sample {
  storage: number;
  connections: number;
}

function DatabaseDetails({ db }: { db: Database }) {
  const [connection, setConnection] = useState<Schemas['ConnectionDetailsResponse']>();
  const reveal = useAction();
  const backups = useLoad(() => call(api.GET('/e/v1/developer/databases/{id}/backups/', { params: { path: { id: db.id } } })), [db.id]);
  const [backupName, setBackupName] = useState('');
  const backupAction = useAction();
  const confirm = useConfirm();
  const [metrics, setMetrics] = useState<Schemas['MetricsResponse']>();
  const [health, setHealth] = useState<Schemas['HealthResponse']>();
  const samples = useRef<Sample[]>([]);
  const [, setTick] = useState(0);

  // Metrics and health, sampled every 5 s while the panel is open: the chart covers the page's lifetime.
  useEffect(() => {
    let live = true;
    const sample = async () => {
      const [m, h] = await Promise.all([
        api.GET('/e/v1/developer/databases/{id}/metrics/', { params: { path: { id: db.id } } }),
        api.GET('/e/v1/developer/databases/{id}/health/', { params: { path: { id: db.id } } }),
      ]).catch(() => [undefined, undefined] as const);
      if (!live) return;
      if (m?.data) {
        setMetrics(m.data);
        samples.current = [...samples.current.slice(-59), { storage: m.data.storage_bytes, connections: m.data.connections }];
        setTick((n) => n + 1);
      }
      if (h?.data) setHealth(h.data);
    };
    void sample();
    const timer = window.setInterval(() => void sample(), 5000);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [db.id]);

  const pending = backups.data?.results.some((b) => b.status === 'pending' || b.status === 'running');
  const { reload } = backups;
  useEffect(() => {
    if (!pending) return;
    const timer = window.setInterval(() => void reload(), 2000);
    return () => window.clearInterval(timer);
  }, [pending, reload]);

  const showConnection = async () => {
    const details = await reveal.run(() =>
      call(api.GET('/e/v1/developer/databases/{id}/connection/', { params: { path: { id: db.id } } })),
    );
    if (details) setConnection(details);
  };
  const backup = async (event: FormEvent) => {
    event.preventDefault();
    if (
      await backupAction.run(() =>
        call(api.POST('/e/v1/developer/databases/{id}/backups/', { params: { path: { id: db.id } }, body: { name: backupName } })),
      )
    ) {
      setBackupName('');
      void reload();
    }
  };
  const restore = async (b: Schemas['BackupResponse']) => {
    await confirmThenRun(
      confirm,
      backupAction,
      [`Restore “${b.name}”?`, <p>The database's current data is replaced by this backup.</p>, 'Restore'],
      () => call(api.POST('/e/v1/developer/backups/{id}/restore/', { params: { path: { id: b.id } } })),
    );
  };

  return (
    <div>
      <h3>Connection</h3>
      {connection ? (
        <>
          <div className="row">
            <code className="mono grow">{connection.connection_string}</code>
            <CopyButton value={connection.connection_string} />
          </div>
          <p className="hint">
            Host {connection.host}:{connection.port}, user {connection.username}, SSL {connection.ssl_mode}
            {connection.key_prefix ? `, key prefix ${connection.key_prefix}` : ''}. Each reveal is recorded in the audit log.
          </p>
          <button type="button" className="link-button" onClick={() => setConnection(undefined)}>
            Hide
          </button>
        </>
      ) : (
        <button type="button" className="secondary small" onClick={() => void showConnection()} disabled={reveal.busy}>
          Show connection details
        </button>
      )}
      <ErrorBanner problem={reveal.problem} />

      <h3>Metrics and health</h3>
      {metrics ? (
        <div className="two-col">
          <div>
            <p>
              Storage {formatBytes(metrics.storage_bytes)} of {formatBytes(metrics.max_storage_bytes)}
            </p>
            <Chart values={samples.current.map((s) => s.storage)} label="Storage over time" />
          </div>
          <div>
            <p>
              Connections {metrics.connections} of {metrics.max_connections}
              {metrics.keys !== undefined ? ` · ${metrics.keys} keys` : ''}
            </p>
            <Chart values={samples.current.map((s) => s.connections)} label="Connections over time" />
          </div>
        </div>
      ) : (
        <Loading what="Reading metrics…" />
      )}
      {health ? (
        <p>
          Health:{' '}
          <Badge tone={health.status === 'healthy' ? 'ok' : health.status === 'unhealthy' ? 'bad' : 'neutral'}>{health.status}</Badge> (
          {health.latency_ms} ms, {formatTime(health.checked_at)}){' '}
          {health.checks
            .filter((c) => !c.ok)
            .map((c) => `${c.name}: ${c.error ?? 'failed'}`)
            .join('; ')}
        </p>
      ) : null}

      <h3>Backups</h3>
      <form className="row wrap" onSubmit={(e) => void backup(e)} aria-label="New backup" noValidate>
        <TextField label="Backup name" name="name" {...bind(backupName, setBackupName)} problem={backupAction.problem} />
        <button type="submit" disabled={backupAction.busy}>
          Back up now
        </button>
      </form>
      <ListTable
        problem={backupAction.problem ?? backups.problem}
        items={backups.data?.results}
        empty="No backups yet."
        caption={`Backups of ${db.display_name}`}
        columns={['Name', 'Status', 'Size', 'SHA-256', 'Created']}
        actions
        row={(b) => (
          <tr key={b.id}>
            <td>{b.name}</td>
            <td>
              <Badge tone={b.status === 'completed' ? 'ok' : b.status === 'failed' ? 'bad' : 'warn'}>{b.status}</Badge>
              {b.error ? <div className="muted">{b.error}</div> : null}
            </td>
            <td>{formatBytes(b.size_bytes)}</td>
            <td className="mono">{b.checksum_sha256 ? `${b.checksum_sha256.slice(0, 16)}…` : '—'}</td>
            <td>{formatTime(b.created_at)}</td>
            <td>{b.status === 'completed' ? <RowButton onClick={() => void restore(b)}>Restore</RowButton> : null}</td>
          </tr>
        )}
      />
      {confirm.dialog}
    </div>
  );
}

function Chart({ values, label }: { values: number[]; label: string }) {
  return (
    <svg className="chart" viewBox="0 0 240 60" preserveAspectRatio="none" role="img" aria-label={`${label}: ${values.length} samples`}>
      <polyline fill="none" stroke="currentColor" strokeWidth="2" points={sparkline(values, 240, 56)} />
    </svg>
  );
}
