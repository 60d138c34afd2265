import { useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api';
import { formatTime } from '../logic/format';
import { useSession } from '../session';
import { ErrorBanner, Loading, SelectField, TextField, useAction, useConfirm, useLoad } from '../ui/kit';
import type { SectionProps } from './WorkspacePage';

type Member = Schemas['WorkspaceMember'];

export function MembersPage({ workspaceId, onChanged }: SectionProps) {
  const { developer } = useSession();
  const list = useLoad(
    () => call(api.GET('/e/v1/developer/workspaces/{id}/members/', { params: { path: { id: workspaceId } } })),
    [workspaceId],
  );
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Member['role']>('member');
  const action = useAction();
  const confirm = useConfirm();

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const added = await action.run(() =>
      call(api.POST('/e/v1/developer/workspaces/{id}/members/', { params: { path: { id: workspaceId } }, body: { email, role } })),
    );
    if (added) {
      setEmail('');
      void list.reload();
      onChanged();
    }
  };
  const remove = async (member: Member) => {
    const ok = await confirm.ask(`Remove ${member.name}?`, <p>{member.email} loses access to this workspace.</p>, 'Remove');
    if (!ok) return;
    const done = await action.run(() =>
      call(
        api.DELETE('/e/v1/developer/workspaces/{id}/members/{developerId}/', {
          params: { path: { id: workspaceId, developerId: member.developer_id } },
        }),
      ).then(() => true),
    );
    if (done) {
      void list.reload();
      onChanged();
    }
  };

  return (
    <section>
      <h1>Members</h1>
      <p className="lead">Developers who manage this workspace. They need a developer account first.</p>
      <form className="card" onSubmit={(e) => void add(e)} aria-label="Add a member" noValidate>
        <div className="row wrap">
          <TextField
            label="Email"
            name="email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            problem={action.problem}
          />
          <SelectField
            label="Role"
            name="role"
            value={role}
            onChange={(e) => setRole(e.target.value as Member['role'])}
            problem={action.problem}
          >
            <option value="member">member</option>
            <option value="owner">owner</option>
          </SelectField>
        </div>
        <button type="submit" disabled={action.busy}>
          Add member
        </button>
      </form>
      <ErrorBanner problem={action.problem} />
      {list.loading && !list.data ? <Loading /> : null}
      <ErrorBanner problem={list.problem} />
      {list.data ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Members</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Since</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.results.map((m) => (
                <tr key={m.developer_id}>
                  <td>
                    {m.name}
                    {m.developer_id === developer?.id ? <span className="muted"> (you)</span> : null}
                  </td>
                  <td>{m.email}</td>
                  <td>{m.role}</td>
                  <td>{formatTime(m.created_at)}</td>
                  <td>
                    <button type="button" className="danger small" onClick={() => void remove(m)} aria-label={`Remove ${m.email}`}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {confirm.dialog}
    </section>
  );
}
