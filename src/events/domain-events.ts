/**
 * Typed map of domain events other modules react to after a unit of work has
 * committed. Add an entry per event; listeners use
 * @OnEvent(name, { async: true, suppressErrors: true }) and catch their own errors.
 */
import type { RequestMeta } from '../common/request-context';

/** One sign-in of an end user, as stored in end_user_sessions (read by the anomaly detectors). */
export interface EndUserSessionRecord {
  id: string;
  workspaceId: string;
  userId: string;
  oauthClientId: string | null;
  /** 'api': tokens from POST /e/v1/auth/login/; 'browser': the hosted login page (cookie esid). */
  kind: 'api' | 'browser';
  ipAddress: string | null;
  userAgent: string | null;
  browserFamily: string;
  osFamily: string;
  country: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
  createdAt: Date;
  lastSeenAt: Date;
}

export interface DomainEvents {
  /** After the session row of a successful end-user sign-in has committed. */
  login_success: {
    session: EndUserSessionRecord;
    user: { id: string; email: string; firstName: string; lastName: string; oauthClientId: string | null };
    request: RequestMeta;
  };
}

export type DomainEventName = keyof DomainEvents;
