import { useEffect, useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api';
import { formatTime } from '../logic/format';
import { escapeHtml, fillPlaceholders, isHtmlBody, unknownPlaceholders } from '../logic/template';
import { bind, FormFooter, listOf, ListState } from '../ui/blocks';
import { Badge, SelectField, TextArea, TextField, useAction, useLoad } from '../ui/kit';
import { SafeHtml } from '../ui/SafeHtml';
import type { SectionProps } from './WorkspacePage';

type Template = Schemas['EmailTemplate'];

export function TemplatesPage({ workspaceId }: SectionProps) {
  const list = useLoad(
    () => call(api.GET('/developer/email-templates/', { params: { query: { workspace_id: workspaceId } } })),
    [workspaceId],
  );
  const [name, setName] = useState<Template['name']>('registration_confirmation');
  const template = list.data?.results.find((t) => t.name === name);
  return (
    <section>
      <h1>Email templates</h1>
      <p className="lead">
        The mails end users of this workspace receive. Placeholders in double braces are filled when each mail is sent.
      </p>
      <ListState {...listOf(list)}>
        {(templates) => (
          <>
            <SelectField label="Template" value={name} onChange={(e) => setName(e.target.value as Template['name'])}>
              {templates.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.display_name}
                </option>
              ))}
            </SelectField>
            {template ? (
              <TemplateEditor key={template.name} workspaceId={workspaceId} template={template} onSaved={() => void list.reload()} />
            ) : null}
          </>
        )}
      </ListState>
    </section>
  );
}

function TemplateEditor({ workspaceId, template, onSaved }: { workspaceId: string; template: Template; onSaved: () => void }) {
  const [subject, setSubject] = useState(template.subject);
  const [fromName, setFromName] = useState(template.from_name);
  const [body, setBody] = useState(template.body);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  useEffect(() => setSaved(false), [subject, fromName, body]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const result = await action.run(() =>
      call(
        api.PUT('/developer/email-templates/{name}/', {
          params: { path: { name: template.name } },
          body: { workspace_id: workspaceId, subject, from_name: fromName, body },
        }),
      ),
    );
    if (result) {
      setSaved(true);
      onSaved();
    }
  };
  const unknown = unknownPlaceholders(subject + fromName + body, template.placeholders);
  const html = isHtmlBody(body);

  return (
    <div className="two-col">
      <form className="card" onSubmit={(e) => void save(e)} aria-label={`Edit ${template.display_name}`} noValidate>
        <p>
          {template.is_default ? (
            <Badge tone="neutral">built-in text</Badge>
          ) : (
            <Badge tone="ok">customised {formatTime(template.updated_at)}</Badge>
          )}
        </p>
        <TextField label="Subject" name="subject" {...bind(subject, setSubject)} problem={action.problem} maxLength={255} />
        <TextField label="From name" name="from_name" {...bind(fromName, setFromName)} problem={action.problem} maxLength={100} />
        <TextArea
          label="Body"
          name="body"
          {...bind(body, setBody)}
          problem={action.problem}
          rows={14}
          className="mono"
          hint="HTML or plain text."
        />
        <p className="hint">
          Placeholders:{' '}
          {template.placeholders
            .map((p) => <code key={p}>{`{{${p}}}`}</code>)
            .reduce<React.ReactNode[]>((all, el, i) => (i ? [...all, ' ', el] : [el]), [])}
        </p>
        {unknown.length ? (
          <p className="field-error" role="status">
            Not a placeholder of this template: {unknown.map((p) => `{{${p}}}`).join(', ')}
          </p>
        ) : null}
        <FormFooter problem={action.problem} busy={action.busy} submit="Save template">
          {saved ? (
            <span role="status" className="muted">
              Saved: the next mail uses it.
            </span>
          ) : null}
        </FormFooter>
      </form>
      <div className="card" aria-label="Preview" role="region">
        <h2>Preview</h2>
        <dl className="details">
          <dt>From</dt>
          <dd>{fillPlaceholders(fromName)}</dd>
          <dt>Subject</dt>
          <dd data-testid="preview-subject">{fillPlaceholders(subject)}</dd>
        </dl>
        {html ? (
          <SafeHtml html={fillPlaceholders(body, undefined, escapeHtml)} label="Rendered mail" />
        ) : (
          <pre className="preview" aria-label="Rendered mail">
            {fillPlaceholders(body)}
          </pre>
        )}
      </div>
    </div>
  );
}
