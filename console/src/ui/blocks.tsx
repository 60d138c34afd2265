import type { ChangeEvent, ReactNode } from 'react';
import type { Problem } from '../logic/problem';
import { Empty, ErrorBanner, Loading, TextField } from './kit';

/**
 * The states of a list the pages show: `Loading…` until the first answer (when `loading` is given),
 * the API's problem, the `empty` text for no items, else `children` with the items.
 * Without `empty`, an empty list still renders `children`.
 */
export function ListState<T>({
  loading,
  problem,
  retry,
  items,
  empty,
  children,
}: {
  loading?: boolean;
  problem?: Problem;
  /** Loads the list again: the error shows a Try again button. */
  retry?: () => void;
  items: readonly T[] | undefined;
  empty?: ReactNode;
  children: (items: readonly T[]) => ReactNode;
}) {
  return (
    <>
      {loading && !items ? <Loading /> : null}
      <ErrorBanner problem={problem} retry={retry} />
      {items && items.length === 0 && empty !== undefined ? <Empty>{empty}</Empty> : null}
      {items && (items.length > 0 || empty === undefined) ? children(items) : null}
    </>
  );
}

/** A table of rows: a caption for screen readers, column headers, and an unlabelled actions column when `actions`. */
export function DataTable({
  caption,
  columns,
  actions,
  children,
}: {
  caption?: ReactNode;
  columns: readonly string[];
  actions?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table>
        {caption ? <caption className="visually-hidden">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
            {actions ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The foot of a form: its problem, the submit button and, with `onCancel`, a Cancel button beside it; `children` (a status) after them. */
export function FormFooter({
  problem,
  busy,
  submit,
  disabled,
  onCancel,
  children,
}: {
  problem?: Problem;
  busy: boolean;
  submit: ReactNode;
  disabled?: boolean;
  onCancel?: () => void;
  children?: ReactNode;
}) {
  const button = (
    <button type="submit" disabled={busy || disabled}>
      {submit}
    </button>
  );
  return (
    <>
      <ErrorBanner problem={problem} />
      {onCancel || children ? (
        <div className="actions">
          {button}
          {onCancel ? (
            <button type="button" className="secondary" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
          {children}
        </div>
      ) : (
        button
      )}
    </>
  );
}

/**
 * A heading with what opens a create form beside it, hidden while the form is `open`:
 * a `New …` button (`create` names it, `onCreate` opens the form) or any `children`.
 */
export function PageHead({
  heading,
  open,
  create,
  onCreate,
  children,
}: {
  heading: ReactNode;
  open?: boolean;
  create?: string;
  onCreate?: () => void;
  children?: ReactNode;
}) {
  return (
    <div className="page-head">
      {heading}
      {!open ? (
        <>
          {create ? (
            <button type="button" onClick={onCreate}>
              {create}
            </button>
          ) : null}
          {children}
        </>
      ) : null}
    </div>
  );
}

/** A page's loaded list (`useLoad` of a `{ results }` answer) as ListState and ListTable props. */
export function listOf<T>(list: { loading: boolean; problem?: Problem; data?: { results: T[] }; reload?: () => Promise<void> }) {
  const { reload } = list;
  return { loading: list.loading, problem: list.problem, items: list.data?.results, retry: reload ? () => void reload() : undefined };
}

/** A small button in a table row; `danger` for destructive ones. */
export function RowButton({
  danger,
  label,
  onClick,
  children,
}: {
  danger?: boolean;
  /** The accessible name, when the visible text alone would be ambiguous. */
  label?: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className={danger ? 'danger small' : 'secondary small'} onClick={onClick} aria-label={label}>
      {children}
    </button>
  );
}

/** Asks with `confirm` first, then runs `action`; the action's result, or undefined when cancelled or failed. */
export async function confirmThenRun<T>(
  confirm: { ask: (title: string, body: ReactNode, action: string) => Promise<boolean> },
  action: { run: <R>(task: () => Promise<R>) => Promise<R | undefined> },
  question: [title: string, body: ReactNode, verb: string],
  task: () => Promise<T>,
): Promise<T | undefined> {
  if (!(await confirm.ask(...question))) return undefined;
  return action.run(task);
}

/** The `value` and `onChange` of an input, textarea or select kept in a string state. */
export function bind(value: string, set: (value: string) => void) {
  return { value, onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => set(e.target.value) };
}

/** The optional expiry of a new token, as a local date and time. */
export function ExpiresField({ value, set, problem }: { value: string; set: (value: string) => void; problem?: Problem }) {
  return <TextField label="Expires (optional)" name="expires_at" type="datetime-local" {...bind(value, set)} problem={problem} />;
}

/** The `expires_at` body field for an ExpiresField's value: none when it is empty. */
export function expiresAt(value: string): { expires_at?: string } {
  return value ? { expires_at: new Date(value).toISOString() } : {};
}

/** A list shown as a table: ListState's loading, problem and empty states around a DataTable with one `row` per item. */
export function ListTable<T>({
  loading,
  problem,
  retry,
  items,
  empty,
  caption,
  columns,
  actions,
  row,
}: {
  loading?: boolean;
  problem?: Problem;
  retry?: () => void;
  items: readonly T[] | undefined;
  empty?: ReactNode;
  caption?: ReactNode;
  columns: readonly string[];
  actions?: boolean;
  row: (item: T) => ReactNode;
}) {
  return (
    <ListState loading={loading} problem={problem} retry={retry} items={items} empty={empty}>
      {(rows) => (
        <DataTable caption={caption} columns={columns} actions={actions}>
          {rows.map(row)}
        </DataTable>
      )}
    </ListState>
  );
}
