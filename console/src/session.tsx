import { createContext, useContext } from 'react';
import type { Schemas } from './api';

export type Developer = Schemas['Developer'];

export interface SessionState {
  /** Undefined while the session is being checked. */
  developer?: Developer;
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionState>({ signOut: async () => undefined });

export function useSession(): SessionState {
  return useContext(SessionContext);
}
