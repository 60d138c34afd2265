import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { entityColumns } from '../database/row-shape';
import { first, statement } from '../database/statement';
import { DeveloperSession } from './entities/developer-session.entity';
import { Developer } from './entities/developer.entity';

export interface NewDeveloperSession {
  developerId: string;
  tokenHash: string;
  csrfToken: string;
  expiresAt: Date;
}

/** A live session with the developer it signs in. */
export type SessionPrincipalRow = Pick<DeveloperSession, 'csrfToken' | 'developerId'> & Pick<Developer, 'email'>;

// Read on every cookie-authenticated dashboard call: a prepared statement on the token_hash key.
const LIVE_SESSION = statement(
  'developer-sessions.live',
  `SELECT s.csrf_token, s.developer_id, d.email FROM developer_sessions s JOIN developers d ON d.id = s.developer_id
  WHERE s.token_hash = $1 AND s.expires_at > $2`,
  entityColumns(DeveloperSession, ['csrfToken', 'developerId']).and(entityColumns(Developer, ['email'])),
);

/** developer_sessions: dashboard sign-ins, found by the SHA-256 of the cookie. */
@Injectable()
export class DeveloperSessionsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(DeveloperSession) private readonly sessions: Repository<DeveloperSession>,
  ) {}

  async insert(values: NewDeveloperSession): Promise<void> {
    await this.sessions.insert(values);
  }

  async deleteByHash(tokenHash: string): Promise<void> {
    await this.sessions.delete({ tokenHash });
  }

  /** The unexpired session of this cookie hash, with its developer; undefined when there is none. */
  async findLive(tokenHash: string, now: Date): Promise<SessionPrincipalRow | undefined> {
    return first(this.dataSource, LIVE_SESSION, [tokenHash, now]);
  }
}
