import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { BrowserSession, BrowserSessionsService } from '../../end-users/hosted-login/browser-sessions.service';

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
}

/** The profile columns an assertion may carry, read with the SP in one round trip. */
export interface UserProfileRow {
  user_email: string | null;
  user_first_name: string | null;
  user_last_name: string | null;
  user_email_verified: boolean | null;
}

export const PROFILE_JOIN = `LEFT JOIN end_users u ON u.workspace_id = s.workspace_id AND u.id = $2 AND u.is_active`;
export const PROFILE_COLUMNS =
  'u.email AS user_email, u.first_name AS user_first_name, u.last_name AS user_last_name, u.email_verified AS user_email_verified';

/**
 * The seam to the end-users module: its browser session (cookie esid) says who is
 * signed in; the profile comes from the SP query (joined on the SP's workspace, so
 * a user of another workspace simply has no profile there).
 */
@Injectable()
export class BrowserUsers {
  constructor(private readonly sessions: BrowserSessionsService) {}

  session(req: Request): Promise<BrowserSession | null> {
    return this.sessions.current(req);
  }

  /** The signed-in user as a member of the SP's workspace, or null. */
  asMember(session: BrowserSession | null, spWorkspaceId: string, profile: UserProfileRow): BrowserUser | null {
    if (!session || session.workspaceId !== spWorkspaceId || profile.user_email === null) return null;
    return {
      userId: session.userId,
      sessionId: session.sessionId,
      workspaceId: session.workspaceId,
      email: profile.user_email,
      firstName: profile.user_first_name || null,
      lastName: profile.user_last_name || null,
      emailVerified: profile.user_email_verified === true,
      authenticatedAt: session.authenticatedAt,
    };
  }

  /** The hosted login page, told which workspace's users may sign in and where to come back. */
  loginLocation(loginUrl: string, workspaceId: string, next: string): string {
    const params = new URLSearchParams({ workspace_id: workspaceId, next });
    return `${loginUrl}${loginUrl.includes('?') ? '&' : '?'}${params.toString()}`;
  }
}
