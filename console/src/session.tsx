import { createContext, useContext } from 'react';
import type { Schemas } from './api';

export type Developer = Schemas['Developer'];

export interface SessionState {
  developer: Developer;
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionState | undefined>(undefined);

export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}
