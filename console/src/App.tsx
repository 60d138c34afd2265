import { useCallback, useEffect, useRef, useState } from 'react';
import { api, setCsrfToken, whenSessionExpires } from './api';
import { signInPath, BASE } from './logic/routes';
import { SignInPage, SignUpPage } from './pages/AuthPages';
import { TokensPage } from './pages/TokensPage';
import { WorkspacePage } from './pages/WorkspacePage';
import { WorkspacesPage } from './pages/WorkspacesPage';
import { currentPath, Link, navigate, useRoute } from './router';
import { SessionContext, type Developer } from './session';
import { Loading } from './ui/kit';

type Auth = { state: 'checking' } | { state: 'anonymous' } | { state: 'signed-in'; developer: Developer };

export function App() {
  const route = useRoute();
  const [auth, setAuth] = useState<Auth>({ state: 'checking' });
  const main = useRef<HTMLElement>(null);
  const state = useRef(auth.state);
  state.current = auth.state;

  useEffect(() => {
    let live = true;
    api
      .GET('/developer/me/')
      .then(({ data }) => live && setAuth(data ? { state: 'signed-in', developer: data } : { state: 'anonymous' }))
      .catch(() => live && setAuth({ state: 'anonymous' }));
    whenSessionExpires(() => {
      // While the first /developer/me/ is under way, its own answer decides (a never signed-in visitor is not "expired").
      if (state.current !== 'signed-in') return;
      setCsrfToken(undefined);
      setAuth({ state: 'anonymous' });
      navigate(signInPath(currentPath(), true), true);
    });
    return () => {
      live = false;
    };
  }, []);

  const signedIn = useCallback((developer: Developer, csrf: string, next?: string) => {
    setCsrfToken(csrf);
    setAuth({ state: 'signed-in', developer });
    navigate(next ?? `${BASE}/`, true);
  }, []);

  const signOut = useCallback(async () => {
    await api.POST('/developer/auth/logout/').catch(() => undefined);
    setCsrfToken(undefined);
    setAuth({ state: 'anonymous' });
    navigate(`${BASE}/signin`, true);
  }, []);

  const isPublic = route.page === 'signin' || route.page === 'signup';
  // A page that needs a session, opened without one: sign in first, then come back.
  useEffect(() => {
    if (auth.state === 'anonymous' && !isPublic && route.page !== 'not-found') navigate(signInPath(currentPath(), false), true);
  }, [auth.state, isPublic, route.page]);

  // Move focus to the page's content on navigation, so keyboard and screen-reader users land on it.
  const path = currentPath();
  useEffect(() => {
    main.current?.focus({ preventScroll: true });
  }, [path]);

  // Signed-in pages start loading their data while the session is being checked: one round trip less on a cold load.
  let content;
  if (auth.state === 'checking' && (route.page === 'signin' || route.page === 'signup')) content = <Loading />;
  else if (route.page === 'signin') content = <SignInPage next={route.next} expired={route.expired} onSignedIn={signedIn} />;
  else if (route.page === 'signup') content = <SignUpPage onSignedIn={signedIn} />;
  else if (route.page === 'not-found') content = <NotFound />;
  else if (auth.state === 'anonymous') content = <Loading />;
  else if (route.page === 'workspaces') content = <WorkspacesPage />;
  else if (route.page === 'tokens') content = <TokensPage />;
  else content = <WorkspacePage key={route.workspaceId} workspaceId={route.workspaceId} section={route.section} itemId={route.itemId} />;

  const developer = auth.state === 'signed-in' ? auth.developer : undefined;
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href={`${BASE}/`} className="brand">
          <span className="mark" aria-hidden="true">
            I
          </span>
          Developer console
        </Link>
        {developer ? (
          <nav aria-label="Account" className="account">
            <Link href={`${BASE}/`}>Workspaces</Link>
            <Link href={`${BASE}/tokens`}>Access tokens</Link>
            <span className="muted who" title={developer.email}>
              {developer.name}
            </span>
            <button type="button" className="secondary" onClick={() => void signOut()}>
              Sign out
            </button>
          </nav>
        ) : null}
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {developer ? <SessionContext.Provider value={{ developer, signOut }}>{content}</SessionContext.Provider> : content}
      </main>
    </>
  );
}

function NotFound() {
  return (
    <section className="narrow">
      <h1>Page not found</h1>
      <p>
        There is no such page in the console. <Link href={`${BASE}/`}>Go to your workspaces</Link>.
      </p>
    </section>
  );
}
