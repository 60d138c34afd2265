import { useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api';
import { BASE } from '../logic/routes';
import { Link } from '../router';
import type { Developer } from '../session';
import { ErrorBanner, TextField, useAction } from '../ui/kit';
import { bind } from '../ui/blocks';

type SignedIn = (developer: Developer, csrf: string, next?: string) => void;

async function login(email: string, password: string): Promise<Schemas['DeveloperLogin']> {
  return call(api.POST('/developer/auth/login/', { body: { email, password } }));
}

export function SignInPage({ next, expired, onSignedIn }: { next?: string; expired: boolean; onSignedIn: SignedIn }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await action.run(() => login(email, password));
    if (answer) onSignedIn(answer.developer, answer.csrf_token, next);
  };
  return (
    <section className="narrow card">
      <h1>Sign in</h1>
      {expired ? (
        <p className="notice" role="status">
          Your session has ended. Sign in again to go back to the page you were on.
        </p>
      ) : null}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          {...bind(email, setEmail)}
          problem={action.problem}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          {...bind(password, setPassword)}
          problem={action.problem}
        />
        <ErrorBanner problem={action.problem} />
        <button type="submit" disabled={action.busy}>
          Sign in
        </button>
      </form>
      <p>
        New here? <Link href={`${BASE}/signup`}>Sign up</Link>
      </p>
    </section>
  );
}

export function SignUpPage({ onSignedIn }: { onSignedIn: SignedIn }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await action.run(async () => {
      await call(api.POST('/developer/auth/signup/', { body: { name, email, password } }));
      return login(email, password);
    });
    if (answer) onSignedIn(answer.developer, answer.csrf_token);
  };
  return (
    <section className="narrow card">
      <h1>Create a developer account</h1>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField label="Name" name="name" autoComplete="name" required {...bind(name, setName)} problem={action.problem} />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          {...bind(email, setEmail)}
          problem={action.problem}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          {...bind(password, setPassword)}
          problem={action.problem}
          hint="At least 8 characters."
        />
        <ErrorBanner problem={action.problem} />
        <button type="submit" disabled={action.busy}>
          Create account
        </button>
      </form>
      <p>
        Already have an account? <Link href={`${BASE}/signin`}>Sign in</Link>
      </p>
    </section>
  );
}
