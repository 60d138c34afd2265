import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { preparedQuery } from '../database/prepared-query';
import { QueryRow, text } from '../database/rows';
import { DeveloperSession } from './entities/developer-session.entity';

export interface NewDeveloperSession {
  developerId: string;
  tokenHash: string;
  csrfToken: string;
  expiresAt: Date;
}

/** A live session with the developer it signs in. */
export interface SessionPrincipalRow {
  csrfToken: string;
  developerId: string;
  email: string;
}

// Read on every cookie-authenticated dashboard call: a prepared statement on the token_hash key.
const LIVE_SESSION = `SELECT s.csrf_token, d.id, d.email FROM developer_sessions s JOIN developers d ON d.id = s.developer_id
  WHERE s.token_hash = $1 AND s.expires_at > $2`;

const toSessionPrincipal = (row: QueryRow): SessionPrincipalRow => ({
  csrfToken: text(row, 'csrf_token'),
  developerId: text(row, 'id'),
  email: text(row, 'email'),
});

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
    const [row] = await preparedQuery(this.dataSource, LIVE_SESSION, [tokenHash, now]);
    return row && toSessionPrincipal(row);
  }
}
