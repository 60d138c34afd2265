import { useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api';
import { formatTime } from '../logic/format';
import { useSession } from '../session';
import { bind, confirmThenRun, listOf, ListTable, RowButton } from '../ui/blocks';
import { ErrorBanner, SelectField, TextField, useAction, useConfirm, useLoad } from '../ui/kit';
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
    const done = await confirmThenRun(
      confirm,
      action,
      [`Remove ${member.name}?`, <p>{member.email} loses access to this workspace.</p>, 'Remove'],
      () =>
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
          <TextField label="Email" name="email" type="email" required {...bind(email, setEmail)} problem={action.problem} />
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
      <ListTable
        {...listOf(list)}
        caption="Members"
        columns={['Name', 'Email', 'Role', 'Since']}
        actions
        row={(m) => (
          <tr key={m.developer_id}>
            <td>
              {m.name}
              {m.developer_id === developer?.id ? <span className="muted"> (you)</span> : null}
            </td>
            <td>{m.email}</td>
            <td>{m.role}</td>
            <td>{formatTime(m.created_at)}</td>
            <td>
              <RowButton danger onClick={() => void remove(m)} label={`Remove ${m.email}`}>
                Remove
              </RowButton>
            </td>
          </tr>
        )}
      />
      {confirm.dialog}
    </section>
  );
}
