import { Fragment, useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, call, problemOf, type Schemas } from '../api';
import { DIRECTORY_EVENT_TYPES, eventSubject } from '../logic/events';
import { formatTime } from '../logic/format';
import type { Problem } from '../logic/problem';
import { DataTable } from '../ui/blocks';
import { Empty, ErrorBanner, Loading, SelectField, TextField } from '../ui/kit';
import type { SectionProps } from './WorkspacePage';

type DirectoryEvent = Schemas['DirectoryEvent'];

const PAGE_SIZE = 50;

interface FeedFilters {
  type: string;
  /** The position to read after, as typed ('' reads from the start). */
  after: string;
}

const NO_FILTERS: FeedFilters = { type: '', after: '' };

/**
 * The workspace's directory event feed (GET /developer/events/), oldest first as the feed is read:
 * "Load more" continues from the last position shown, a type filter narrows it, and each event's
 * object opens in place.
 */
export function EventsPage({ workspaceId }: SectionProps) {
  const [draft, setDraft] = useState<FeedFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<FeedFilters>(NO_FILTERS);
  const [events, setEvents] = useState<DirectoryEvent[]>();
  const [position, setPosition] = useState(0);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [problem, setProblem] = useState<Problem>();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());

  const fetchPage = useCallback(
    async (after: number, append: boolean) => {
      setLoading(true);
      setProblem(undefined);
      try {
        const page = await call(
          api.GET('/developer/events/', {
            params: {
              query: {
                workspace_id: workspaceId,
                after,
                limit: PAGE_SIZE,
                ...(filters.type ? { types: [filters.type as DirectoryEvent['type']] } : {}),
              },
            },
          }),
        );
        setEvents((before) => (append ? [...(before ?? []), ...page.results] : page.results));
        setPosition(page.next_after);
        setMore(page.results.length === PAGE_SIZE);
      } catch (error) {
        setProblem(problemOf(error));
      } finally {
        setLoading(false);
      }
    },
    // Every submit makes a new filters object: "Show events" reads the feed again even with the same values.
    [workspaceId, filters],
  );

  useEffect(() => {
    setOpen(new Set());
    void fetchPage(Number(filters.after) || 0, false);
  }, [fetchPage, filters]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ type: draft.type, after: draft.after.trim() });
  };
  const toggle = (id: string) =>
    setOpen((before) => {
      const next = new Set(before);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <section>
      <div className="page-head">
        <h1>Events</h1>
      </div>
      <p className="lead">
        Every directory change of this workspace, oldest first, numbered without gaps: what apps read from{' '}
        <code>GET /developer/events/</code> or receive on webhooks.
      </p>
      <form className="card" onSubmit={apply} aria-label="Event filters">
        <div className="row wrap">
          <SelectField label="Type" name="type" value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.target.value })}>
            <option value="">All types</option>
            {DIRECTORY_EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </SelectField>
          <TextField
            label="After position"
            name="after"
            inputMode="numeric"
            pattern="[0-9]*"
            value={draft.after}
            onChange={(e) => setDraft({ ...draft, after: e.target.value })}
            hint="Show events numbered after this one (empty: from the start)."
          />
        </div>
        <div className="actions">
          <button type="submit">Show events</button>
        </div>
      </form>
      <ErrorBanner problem={problem} />
      {events && events.length === 0 && !loading ? <Empty>No events yet: they appear when SCIM changes the directory.</Empty> : null}
      {events && events.length > 0 ? (
        <DataTable caption="Directory events" columns={['Position', 'Time', 'Event', 'Subject', 'Data']}>
          {events.map((e) => {
            const expanded = open.has(e.id);
            const panel = `event-data-${e.id}`;
            return (
              <Fragment key={e.id}>
                <tr>
                  <td>{e.seq}</td>
                  <td>{formatTime(e.occurred_at)}</td>
                  <td>
                    <code>{e.type}</code>
                    {e.changed?.length ? <div className="muted">changed: {e.changed.join(', ')}</div> : null}
                  </td>
                  <td>{eventSubject(e)}</td>
                  <td>
                    <button
                      type="button"
                      className="link-button"
                      aria-expanded={expanded}
                      aria-controls={expanded ? panel : undefined}
                      aria-label={`${expanded ? 'Hide' : 'Show'} data of event ${e.seq}`}
                      onClick={() => toggle(e.id)}
                    >
                      {expanded ? 'Hide' : 'Show'}
                    </button>
                  </td>
                </tr>
                {expanded ? (
                  <tr id={panel}>
                    <td colSpan={5}>
                      <pre role="region" aria-label={`Data of event ${e.seq}`} tabIndex={0}>
                        {JSON.stringify(e.data, null, 2)}
                      </pre>
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </DataTable>
      ) : null}
      {loading ? <Loading what="Loading events…" /> : null}
      {more && !loading ? (
        <button type="button" className="secondary" onClick={() => void fetchPage(position, true)}>
          Load more
        </button>
      ) : null}
      {!more && !loading && events && events.length > 0 ? (
        <p className="muted" role="status">
          Up to date at position {position}.{' '}
          <button type="button" className="link-button" onClick={() => void fetchPage(position, true)}>
            Check for newer events
          </button>
        </p>
      ) : null}
    </section>
  );
}
