import { useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api';
import type { Problem } from '../logic/problem';
import { BASE } from '../logic/routes';
import { Link } from '../router';
import type { Developer } from '../session';
import { bind, FormFooter } from '../ui/blocks';
import { TextField, useAction } from '../ui/kit';

type SignedIn = (developer: Developer, csrf: string, next?: string) => void;

async function login(email: string, password: string): Promise<Schemas['DeveloperLogin']> {
  return call(api.POST('/developer/auth/login/', { body: { email, password } }));
}

/** The Email and Password fields of the sign-in and sign-up forms; `signUp` asks for a new password of 8 or more characters. */
function CredentialFields({
  email,
  setEmail,
  password,
  setPassword,
  problem,
  signUp,
}: {
  email: string;
  setEmail: (email: string) => void;
  password: string;
  setPassword: (password: string) => void;
  problem?: Problem;
  signUp?: boolean;
}) {
  return (
    <>
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete={signUp ? 'email' : 'username'}
        required
        {...bind(email, setEmail)}
        problem={problem}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete={signUp ? 'new-password' : 'current-password'}
        required
        minLength={signUp ? 8 : undefined}
        {...bind(password, setPassword)}
        problem={problem}
        hint={signUp ? 'At least 8 characters.' : undefined}
      />
    </>
  );
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
        <CredentialFields email={email} setEmail={setEmail} password={password} setPassword={setPassword} problem={action.problem} />
        <FormFooter problem={action.problem} busy={action.busy} submit="Sign in" />
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
        <CredentialFields email={email} setEmail={setEmail} password={password} setPassword={setPassword} problem={action.problem} signUp />
        <FormFooter problem={action.problem} busy={action.busy} submit="Create account" />
      </form>
      <p>
        Already have an account? <Link href={`${BASE}/signin`}>Sign in</Link>
      </p>
    </section>
  );
}
