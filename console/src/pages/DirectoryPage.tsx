import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, call, problemOf, type Schemas } from '../api';
import { formatTime } from '../logic/format';
import type { Problem } from '../logic/problem';
import { bind, DataTable, FormFooter, ListTable, PageHead } from '../ui/blocks';
import { Badge, Empty, ErrorBanner, Loading, Modal, TextField, useAction, useLoad } from '../ui/kit';
import type { SectionProps } from './WorkspacePage';

type DirectoryUser = Schemas['DirectoryUser'];
type DirectoryGroup = Schemas['DirectoryGroupWithMembers'];

/** One page after another of a `{results, next_cursor}` list, restarting when `key` changes. */
function usePages<T>(fetchPage: (cursor: string | undefined) => Promise<{ results: T[]; next_cursor: string | null }>) {
  const [items, setItems] = useState<T[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [problem, setProblem] = useState<Problem>();
  const load = useCallback(
    async (after: string | undefined) => {
      setLoading(true);
      setProblem(undefined);
      try {
        const page = await fetchPage(after);
        setItems((before) => (after ? [...(before ?? []), ...page.results] : page.results));
        setCursor(page.next_cursor);
      } catch (error) {
        setProblem(problemOf(error));
      } finally {
        setLoading(false);
      }
    },
    [fetchPage],
  );
  useEffect(() => {
    void load(undefined);
  }, [load]);
  return { items, loading, problem, more: cursor ? () => void load(cursor) : undefined, reload: () => void load(undefined) };
}

function displayName(user: { first_name: string; last_name: string }): string {
  return `${user.first_name} ${user.last_name}`.trim() || '—';
}

export function DirectoryPage({ workspaceId }: SectionProps) {
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const [tab, setTab] = useState<'people' | 'groups'>('people');
  const [adding, setAdding] = useState(false);
  const [selected, setSelected] = useState<DirectoryUser>();
  const people = usePages(
    useCallback(
      (cursor: string | undefined) =>
        call(
          api.GET('/developer/directory/users/', {
            params: { query: { workspace_id: workspaceId, ...(search ? { search } : {}), ...(cursor ? { cursor } : {}) } },
          }),
        ),
      [workspaceId, search],
    ),
  );
  const groups = usePages(
    useCallback(
      (cursor: string | undefined) =>
        call(
          api.GET('/developer/directory/groups/', {
            params: { query: { workspace_id: workspaceId, ...(search ? { search } : {}), ...(cursor ? { cursor } : {}) } },
          }),
        ),
      [workspaceId, search],
    ),
  );

  const applySearch = (event: FormEvent) => {
    event.preventDefault();
    setSearch(draft.trim());
  };

  return (
    <section>
      <PageHead heading={<h1>Directory</h1>} open={adding} create="Add user" onCreate={() => setAdding(true)} />
      <p className="lead">
        Everyone who can sign in to this workspace: people your identity provider pushed over SCIM, people added here, and application
        accounts.
      </p>
      {adding ? (
        <AddUserForm
          workspaceId={workspaceId}
          onDone={(created) => {
            setAdding(false);
            if (created) people.reload();
          }}
        />
      ) : null}
      <form className="row wrap" role="search" aria-label="Filter the directory" onSubmit={applySearch}>
        <TextField label="Search" name="search" type="search" {...bind(draft, setDraft)} placeholder="email or name" />
        <div className="actions">
          <button type="submit" className="secondary">
            Find
          </button>
        </div>
      </form>
      <div className="tabs" role="group" aria-label="Directory lists">
        <button
          type="button"
          className={tab === 'people' ? '' : 'secondary'}
          aria-pressed={tab === 'people'}
          onClick={() => setTab('people')}
        >
          People
        </button>
        <button
          type="button"
          className={tab === 'groups' ? '' : 'secondary'}
          aria-pressed={tab === 'groups'}
          onClick={() => setTab('groups')}
        >
          Groups
        </button>
      </div>
      {tab === 'people' ? (
        <>
          <ListTable
            loading={people.loading}
            problem={people.problem}
            items={people.items}
            empty={search ? 'Nobody matches.' : 'Nobody yet: connect SCIM or add a user.'}
            caption="People"
            columns={['Email', 'Name', 'Status', 'Verified', 'Source']}
            row={(u) => (
              <tr key={u.id}>
                <td>
                  <button type="button" className="link-button" onClick={() => setSelected(u)}>
                    {u.email}
                  </button>
                </td>
                <td>{displayName(u)}</td>
                <td>{u.active ? <Badge tone="ok">active</Badge> : <Badge tone="bad">deactivated</Badge>}</td>
                <td>{u.email_verified ? 'yes' : 'no'}</td>
                <td>{u.application ? u.application.name : 'directory'}</td>
              </tr>
            )}
          />
          <MoreButton pages={people} />
        </>
      ) : (
        <>
          <ListTable
            loading={groups.loading}
            problem={groups.problem}
            items={groups.items}
            empty={search ? 'No group matches.' : 'No groups yet: your identity provider pushes them over SCIM.'}
            caption="Groups"
            columns={['Group', 'Members', 'External ID', 'Created']}
            row={(g: DirectoryGroup) => (
              <tr key={g.id}>
                <td>{g.display_name}</td>
                <td>{g.member_count}</td>
                <td>{g.external_id ?? '—'}</td>
                <td>{formatTime(g.created_at)}</td>
              </tr>
            )}
          />
          <MoreButton pages={groups} />
        </>
      )}
      {selected ? <PersonDrawer workspaceId={workspaceId} user={selected} onClose={() => setSelected(undefined)} /> : null}
    </section>
  );
}

function MoreButton({ pages }: { pages: { loading: boolean; more?: () => void; items?: unknown[] } }) {
  if (pages.loading && pages.items) return <Loading />;
  if (!pages.more || pages.loading) return null;
  return (
    <button type="button" className="secondary" onClick={pages.more}>
      Load more
    </button>
  );
}

function AddUserForm({ workspaceId, onDone }: { workspaceId: string; onDone: (created: boolean) => void }) {
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await action.run(() =>
      call(
        api.POST('/developer/directory/users/', {
          body: { workspace_id: workspaceId, email, first_name: firstName, last_name: lastName },
        }),
      ),
    );
    if (created) onDone(true);
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-label="Add user" noValidate>
      <p>They get a directory account without a password; they set one on the hosted sign-in page (Set or reset your password).</p>
      <div className="row wrap">
        <TextField label="Email" name="email" type="email" required {...bind(email, setEmail)} problem={action.problem} />
        <TextField label="First name" name="first_name" {...bind(firstName, setFirstName)} problem={action.problem} />
        <TextField label="Last name" name="last_name" {...bind(lastName, setLastName)} problem={action.problem} />
      </div>
      <FormFooter problem={action.problem} busy={action.busy} submit="Create" onCancel={() => onDone(false)} />
    </form>
  );
}

function PersonDrawer({ workspaceId, user, onClose }: { workspaceId: string; user: DirectoryUser; onClose: () => void }) {
  const person = useLoad(
    () => call(api.GET('/developer/directory/users/{id}/', { params: { path: { id: user.id }, query: { workspace_id: workspaceId } } })),
    [workspaceId, user.id],
  );
  const trail = useLoad(
    () => call(api.GET('/developer/audit/', { params: { query: { workspace_id: workspaceId, subject_id: user.id, limit: 50 } } })),
    [workspaceId, user.id],
  );
  const data = person.data;
  return (
    <Modal title={user.email} onClose={onClose} variant="drawer">
      <ErrorBanner problem={person.problem} />
      {person.loading && !data ? <Loading /> : null}
      {data ? (
        <>
          <dl className="details">
            <dt>Name</dt>
            <dd>{displayName(data.user)}</dd>
            <dt>Status</dt>
            <dd>{data.user.active ? 'active' : 'deactivated'}</dd>
            <dt>Email verified</dt>
            <dd>{data.user.email_verified ? 'yes' : 'no'}</dd>
            <dt>Password set</dt>
            <dd>{data.user.has_password ? 'yes' : 'no'}</dd>
            <dt>ID</dt>
            <dd className="mono">{data.user.id}</dd>
          </dl>
          <h3>Groups</h3>
          {data.groups.length ? (
            <ul>
              {data.groups.map((g) => (
                <li key={g.id}>{g.display_name}</li>
              ))}
            </ul>
          ) : (
            <Empty>In no group.</Empty>
          )}
          <h3>Sessions</h3>
          {data.sessions.length ? (
            <DataTable caption="Sessions" columns={['Device', 'IP', 'Signed in with', 'Last seen']}>
              {data.sessions.map((s) => (
                <tr key={s.id}>
                  <td>
                    {s.browser_family} on {s.os_family}
                  </td>
                  <td>
                    {s.ip_address ?? '—'} {s.country ?? ''}
                  </td>
                  <td>{s.amr.join(', ') || s.kind}</td>
                  <td>{formatTime(s.last_seen_at)}</td>
                </tr>
              ))}
            </DataTable>
          ) : (
            <Empty>No live session.</Empty>
          )}
          <h3>Second factors</h3>
          <ul>
            <li>Authenticator app: {data.factors.totp ? 'set up' : 'none'}</li>
            <li>Passkeys: {data.factors.passkeys.length ? data.factors.passkeys.map((p) => p.name).join(', ') : 'none'}</li>
            <li>Recovery codes left: {data.factors.recovery_codes_left}</li>
          </ul>
        </>
      ) : null}
      <h3>Audit trail</h3>
      <ErrorBanner problem={trail.problem} />
      {trail.data && trail.data.results.length === 0 ? <Empty>No events.</Empty> : null}
      {trail.data && trail.data.results.length > 0 ? (
        <DataTable caption="Audit trail" columns={['Time', 'Event', 'By']}>
          {trail.data.results.map((e) => (
            <tr key={e.id}>
              <td>{formatTime(e.created_at)}</td>
              <td>
                <code>{e.event_type}</code>
              </td>
              <td>{typeof e.metadata.actor_label === 'string' ? e.metadata.actor_label : (e.actor_email ?? e.actor_type)}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </Modal>
  );
}
