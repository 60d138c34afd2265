import { devMailbox, type DevMail } from '../api';
import { formatTime } from '../logic/format';
import { ListTable } from '../ui/blocks';
import { CopyButton, useLoad } from '../ui/kit';
import type { SectionProps } from './WorkspacePage';

/**
 * The development mailbox: without SMTP the service writes each mail as a .eml file in MAIL_DIR; this page
 * reads the workspace's last ones back, with their codes, so a sign-up or a reset is finished in the browser.
 * The server answers it only outside production (the workspace's navigation shows it only then).
 */
export function MailboxPage({ workspaceId }: SectionProps) {
  const list = useLoad(() => devMailbox(workspaceId), [workspaceId]);
  return (
    <section>
      <div className="page-head">
        <h1>Mailbox</h1>
        <button type="button" onClick={() => void list.reload()} disabled={list.loading}>
          Refresh
        </button>
      </div>
      <p className="lead">
        Development only: no SMTP server is set (<code>SMTP_URL</code>), so mail is written as files to <code>MAIL_DIR</code> instead of
        being sent. These are this workspace’s last 20 mails, newest first, with the codes they carry.
      </p>
      <ListTable
        loading={list.loading && !list.data}
        problem={list.problem}
        items={list.data?.results}
        empty="No mail yet. Mails appear here when an end user signs up, asks for a code or resets a password."
        caption="Last mails"
        columns={['Sent', 'To', 'Subject', 'Code', 'Message']}
        row={(mail) => <MailRow key={mail.id} mail={mail} />}
      />
    </section>
  );
}

function MailRow({ mail }: { mail: DevMail }) {
  return (
    <tr>
      <td>{mail.sent_at ? formatTime(mail.sent_at) : '—'}</td>
      <td>{mail.to}</td>
      <td>{mail.subject ?? <span className="muted">({mail.template})</span>}</td>
      <td>
        {mail.codes.length
          ? mail.codes.map((code) => (
              <span key={code} className="mail-code">
                <code>{code}</code> <CopyButton value={code} />
              </span>
            ))
          : '—'}
      </td>
      <td>
        {mail.missing ? (
          <span className="muted">The file {mail.file_name} is no longer in MAIL_DIR.</span>
        ) : (
          <details>
            <summary>Show the text</summary>
            <pre className="mail-text" tabIndex={0} aria-label={`Text of the mail to ${mail.to}`}>
              {mail.text ?? '(no plain-text part)'}
            </pre>
            {mail.links.length ? (
              <ul>
                {mail.links.map((link) => (
                  <li key={link}>
                    <a href={link} target="_blank" rel="noopener">
                      {link}
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
          </details>
        )}
      </td>
    </tr>
  );
}
