import { Injectable } from '@nestjs/common';
import { BrowserSessionWithProfile, BrowserSessionsService } from '../../hosted-login/browser-sessions.service';
import type { AssertableUser } from '../protocol/user-claims';
import type { EndUserActor } from './sso-outcome';

/** The end user signed in to this browser (hosted login session), with what an assertion may say. */
export interface BrowserUser {
  userId: string;
  sessionId: string;
  workspaceId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  emailVerified: boolean;
  /** When the password was typed for this session (ForceAuthn compares it). */
  authenticatedAt: Date;
  /** How the session was authenticated (RFC 8176): ['pwd'], or with a second factor ['pwd', 'otp', 'mfa']. */
  amr: string[];
}

/**
 * The seam to the hosted login module: its browser session (cookie esid) says who is
 * signed in, and brings the user's profile (an active user of the session's workspace);
 * a user of another workspace than the SP's is nobody there.
 */
@Injectable()
export class BrowserUsers {
  constructor(private readonly sessions: BrowserSessionsService) {}

  /** The session of the hosted-login cookie's token (the controller reads the cookie), or null. */
  session(token: string | undefined): Promise<BrowserSessionWithProfile | null> {
    return this.sessions.sessionFor(token);
  }

  /** The signed-in user as a member of the SP's workspace, or null. */
  asMember(session: BrowserSessionWithProfile | null, spWorkspaceId: string): BrowserUser | null {
    if (!session || session.workspaceId !== spWorkspaceId) return null;
    return {
      userId: session.userId,
      sessionId: session.sessionId,
      workspaceId: session.workspaceId,
      email: session.email,
      firstName: session.firstName || null,
      lastName: session.lastName || null,
      emailVerified: session.emailVerified,
      authenticatedAt: session.authenticatedAt,
      amr: session.amr,
    };
  }

  /** Whether the user could answer a step-up (has a second factor). */
  hasSecondFactor(user: BrowserUser): Promise<boolean> {
    return this.sessions.hasSecondFactor(user.workspaceId, user.userId);
  }

  /** The hosted login page, told which workspace's users may sign in and where to come back. */
  loginLocation(loginUrl: string, workspaceId: string, next: string, stepUp = false): string {
    const params = new URLSearchParams({ workspace_id: workspaceId, next });
    // The signed-in user owes a second factor (step-up): the login page asks for it, not the password.
    if (stepUp) params.set('step_up', '1');
    return `${loginUrl}${loginUrl.includes('?') ? '&' : '?'}${params.toString()}`;
  }
}

/** What the user claims and NameID rules read of the user. */
export function assertableOf(user: BrowserUser): AssertableUser {
  return { id: user.userId, email: user.email, firstName: user.firstName, lastName: user.lastName, emailVerified: user.emailVerified };
}

/** The user as the actor of an audit row. */
export function actorOf(user: BrowserUser): EndUserActor {
  return { type: 'end_user', id: user.userId, email: user.email };
}
