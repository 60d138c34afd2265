import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { problemOf } from '../api';
import { automaticRetryDelayMs, fieldMessages, type Problem } from '../logic/problem';

/**
 * Loads data for a page: loading, the data, or the API's problem, and a reload. A transient failure (no answer,
 * 429, 502–504) is loaded again once on its own after the pause the service asked for (decision 0940), the last
 * data staying on screen meanwhile; a second failure, or any other, shows the problem (with `reload` as its retry).
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]) {
  const [state, setState] = useState<{ data?: T; problem?: Problem; loading: boolean }>({ loading: true });
  const generation = useRef(0);
  const run = useCallback(load, deps);
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    const current = () => mine === generation.current;
    setState((s) => ({ ...s, problem: undefined, loading: true }));
    for (let attempt = 1; ; attempt++) {
      try {
        const data = await run();
        if (current()) setState({ data, loading: false });
        return;
      } catch (error) {
        const problem = problemOf(error);
        const pause = attempt === 1 ? automaticRetryDelayMs(problem) : null;
        if (pause === null) {
          if (current()) setState({ problem, loading: false });
          return;
        }
        await new Promise((resolve) => window.setTimeout(resolve, pause));
        if (!current()) return;
      }
    }
  }, [run]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { ...state, reload, setData: (data: T) => setState({ data, loading: false }) };
}

/** Runs an action from a form or button: busy while it runs, the problem if it fails. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setProblem(undefined);
    try {
      return await action();
    } catch (error) {
      setProblem(problemOf(error));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, problem, run, clear: () => setProblem(undefined) };
}

/** The problem, as an alert; with `retry`, a button that tries again (a list that failed to load). */
export function ErrorBanner({ problem, retry }: { problem?: Problem; retry?: () => void }) {
  if (!problem) return null;
  return (
    <div className="error" role="alert">
      {problem.message}
      {retry ? (
        <>
          {' '}
          <button type="button" className="secondary small" onClick={retry}>
            Try again
          </button>
        </>
      ) : null}
    </div>
  );
}

export function Loading({ what = 'Loading…' }: { what?: string }) {
  return (
    <p className="muted" role="status">
      {what}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

interface FieldProps {
  label: string;
  /** API field name whose validation messages show under this field. */
  name?: string;
  problem?: Problem;
  hint?: ReactNode;
}

function FieldShell({
  label,
  name,
  problem,
  hint,
  children,
}: FieldProps & { children: (id: string, describedBy: string | undefined) => ReactNode }) {
  const id = useId();
  const messages = name ? fieldMessages(problem, name) : [];
  const describedBy = [hint ? `${id}-hint` : '', messages.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id, describedBy)}
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {messages.length ? (
        <p className="field-error" id={`${id}-error`}>
          {messages.join('; ')}
        </p>
      ) : null}
    </div>
  );
}

/** The attributes that tie a control to its label, hint and validation messages. */
function controlProps(id: string, describedBy: string | undefined, name: string | undefined, problem: Problem | undefined) {
  return {
    id,
    name,
    'aria-describedby': describedBy,
    'aria-invalid': name && fieldMessages(problem, name).length ? true : undefined,
  };
}

export function TextField({ label, name, problem, hint, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldShell label={label} name={name} problem={problem} hint={hint}>
      {(id, describedBy) => <input {...controlProps(id, describedBy, name, problem)} {...input} />}
    </FieldShell>
  );
}

export function TextArea({ label, name, problem, hint, ...input }: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldShell label={label} name={name} problem={problem} hint={hint}>
      {(id, describedBy) => <textarea {...controlProps(id, describedBy, name, problem)} {...input} />}
    </FieldShell>
  );
}

export function SelectField({
  label,
  name,
  problem,
  hint,
  children,
  ...select
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  return (
    <FieldShell label={label} name={name} problem={problem} hint={hint}>
      {(id, describedBy) => (
        <select id={id} name={name} aria-describedby={describedBy} {...select}>
          {children}
        </select>
      )}
    </FieldShell>
  );
}

/** A button that copies `value`; `what` names the value for screen readers when the visible "Copy" alone would be ambiguous. */
export function CopyButton({ value, label = 'Copy', what }: { value: string; label?: string; what?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };
  return (
    <button
      type="button"
      className="secondary"
      onClick={() => void copy()}
      aria-label={what ? `${label} ${what}${copied ? ' (copied)' : ''}` : undefined}
    >
      {label}
      <span className="visually-hidden" aria-live="polite">
        {copied ? ' (copied)' : ''}
      </span>
      <span aria-hidden="true">{copied ? ' ✓' : ''}</span>
    </button>
  );
}

/** A secret the API returns once: read-only, a Copy button, and the warning that it will not be shown again. */
export function SecretOnce({ label, value, onDone }: { label: string; value: string; onDone?: () => void }) {
  const id = useId();
  return (
    <div className="secret" role="region" aria-label="Shown once">
      <label htmlFor={id}>{label}</label>
      <div className="row">
        <input id={id} readOnly value={value} className="mono" onFocus={(e) => e.currentTarget.select()} />
        <CopyButton value={value} />
      </div>
      <p className="warning">Copy it now: it will not be shown again.</p>
      {onDone ? (
        <button type="button" className="link-button" onClick={onDone}>
          Done
        </button>
      ) : null}
    </div>
  );
}

/** A modal confirmation before anything destructive; `ask` resolves true when confirmed. */
export function useConfirm() {
  const [request, setRequest] = useState<{ title: string; body: ReactNode; action: string; resolve: (ok: boolean) => void }>();
  const ask = useCallback(
    (title: string, body: ReactNode, action: string) => new Promise<boolean>((resolve) => setRequest({ title, body, action, resolve })),
    [],
  );
  const close = (ok: boolean) => {
    request?.resolve(ok);
    setRequest(undefined);
  };
  const dialog = request ? (
    <Modal title={request.title} onClose={() => close(false)}>
      <div>{request.body}</div>
      <div className="actions">
        <button type="button" className="secondary" onClick={() => close(false)}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={() => close(true)}>
          {request.action}
        </button>
      </div>
    </Modal>
  ) : null;
  return { ask, dialog };
}

/** A native modal dialog: focus moves in, Escape closes, focus returns where it was. */
export function Modal({
  title,
  onClose,
  children,
  variant,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  variant?: 'drawer';
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    const before = document.activeElement as HTMLElement | null;
    dialog?.showModal();
    return () => {
      dialog?.close();
      before?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={variant === 'drawer' ? 'drawer' : 'modal'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="dialog-head">
        <h2 id={titleId}>{title}</h2>
        {variant === 'drawer' ? (
          <button type="button" className="secondary" onClick={onClose}>
            Close
          </button>
        ) : null}
      </div>
      {children}
    </dialog>
  );
}

export function Badge({ tone, children }: { tone: 'ok' | 'warn' | 'bad' | 'neutral'; children: ReactNode }) {
  return <span className={`badge ${tone}`}>{children}</span>;
}

/** Saves a text as a file download (no server round trip). */
export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
