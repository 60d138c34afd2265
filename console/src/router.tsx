import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { matchRoute, type Route } from './logic/routes';

const listeners = new Set<() => void>();

/** Client-side navigation within the console (history API); the server answers index.html on reload. */
export function navigate(path: string, replace = false): void {
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  for (const listener of listeners) listener();
}

export function currentPath(): string {
  return window.location.pathname + window.location.search;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => matchRoute(window.location.pathname, window.location.search));
  useEffect(() => {
    const update = () => setRoute(matchRoute(window.location.pathname, window.location.search));
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

/** An ordinary link (middle click, copy address work) that navigates in place on a plain click. */
export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={click} {...rest} />;
}
