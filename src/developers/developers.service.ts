import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, IsNull, Repository } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { CredentialCache, notifyCredentialRevoked } from '../common/auth/credential-cache';
import { DeveloperPrincipal, DeveloperSessionAuthenticator } from '../common/auth/principal';
import { PasswordHasher } from '../common/crypto/password-hasher';
import { generateToken, safeEqual, sha256Hex } from '../common/crypto/tokens';
import { DomainError, notFound } from '../common/errors';
import { isUuid } from '../common/ids';
import { RequestMeta } from '../common/request-context';
import { APP_CONFIG, AppConfig } from '../config/config';
import { preparedQuery } from '../database/prepared-query';
import { CreateDeveloperTokenDto, LoginDto, SignupDto } from './dto/developer-auth.dto';
import { Developer } from './entities/developer.entity';
import { DeveloperSession } from './entities/developer-session.entity';
import { DeveloperToken } from './entities/developer-token.entity';
import { isUniqueViolation } from '../common/db-errors';

export interface DeveloperView {
  id: string;
  email: string;
  name: string;
  created_at: string;
}

export const toDeveloperView = (d: Developer): DeveloperView => ({
  id: d.id,
  email: d.email,
  name: d.name,
  created_at: d.createdAt.toISOString(),
});

/** Developer accounts, dashboard sessions (cookie + CSRF token) and access tokens. */
@Injectable()
export class DevelopersService implements DeveloperSessionAuthenticator {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Developer) private readonly developers: Repository<Developer>,
    @InjectRepository(DeveloperSession) private readonly sessions: Repository<DeveloperSession>,
    @InjectRepository(DeveloperToken) private readonly tokens: Repository<DeveloperToken>,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokenCache: CredentialCache,
  ) {}

  async signup(dto: SignupDto): Promise<DeveloperView> {
    if (!this.config.DEVELOPER_SIGNUP_ENABLED) throw new DomainError('forbidden', 'Developer signup is disabled on this deployment');
    const passwordHash = await this.hasher.hash(dto.password);
    try {
      const developer = await this.developers.save(this.developers.create({ email: dto.email, name: dto.name, passwordHash }));
      return toDeveloperView(developer);
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError('email_taken', 'A developer with this email already exists');
      throw err;
    }
  }

  async login(dto: LoginDto): Promise<{ developer: DeveloperView; sessionToken: string; csrfToken: string; expiresAt: Date }> {
    const developer = await this.developers
      .createQueryBuilder('d')
      .addSelect('d.passwordHash')
      .where('lower(d.email) = :email', { email: dto.email })
      .getOne();
    const ok = developer
      ? await this.hasher.verify(developer.passwordHash, dto.password)
      : await this.hasher.verifyAgainstDummy(dto.password);
    if (!developer || !ok) throw new DomainError('invalid_credentials', 'Email or password is incorrect');
    const sessionToken = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const expiresAt = new Date(Date.now() + this.config.DEVELOPER_SESSION_TTL_SECONDS * 1000);
    await this.sessions.insert({ developerId: developer.id, tokenHash: sha256Hex(sessionToken), csrfToken, expiresAt });
    return { developer: toDeveloperView(developer), sessionToken, csrfToken, expiresAt };
  }

  async logout(sessionToken: string | undefined): Promise<void> {
    if (sessionToken) await this.sessions.delete({ tokenHash: sha256Hex(sessionToken) });
  }

  async me(developerId: string): Promise<DeveloperView> {
    const developer = await this.developers.findOneBy({ id: developerId });
    if (!developer) throw notFound('developer');
    return toDeveloperView(developer);
  }

  async authenticateSession(sessionToken: string, csrfHeader: string | undefined, unsafeMethod: boolean): Promise<DeveloperPrincipal> {
    const row = (await this.dataSource.query(
      `SELECT s.csrf_token, d.id, d.email FROM developer_sessions s JOIN developers d ON d.id = s.developer_id
        WHERE s.token_hash = $1 AND s.expires_at > now()`,
      [sha256Hex(sessionToken)],
    )) as { csrf_token: string; id: string; email: string }[];
    if (!row[0]) throw new DomainError('unauthorized', 'Session expired or invalid; sign in again');
    if (unsafeMethod && !(csrfHeader && safeEqual(csrfHeader, row[0].csrf_token))) {
      throw new DomainError('csrf_failed', 'Missing or wrong X-CSRF-Token header');
    }
    return { kind: 'developer', developerId: row[0].id, email: row[0].email, via: 'session' };
  }

  /** One indexed read by hash, or a hit in the credential cache, which every revocation empties on every instance. */
  async authenticateToken(token: string): Promise<DeveloperPrincipal | null> {
    if (!token.startsWith('dat_') || token.length > 200) return null;
    const hash = sha256Hex(token);
    const principal = await this.tokenCache.resolve<DeveloperPrincipal>('developer', hash, async () => {
      const [row] = await preparedQuery<{ token_id: string; expires_at: Date | null; id: string; email: string }>(
        this.dataSource,
        `SELECT t.id AS token_id, t.expires_at, d.id, d.email FROM developer_tokens t JOIN developers d ON d.id = t.developer_id
          WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())`,
        [hash],
      );
      return (
        row && {
          principal: { kind: 'developer', developerId: row.id, email: row.email, via: 'token', tokenId: row.token_id },
          expiresAt: row.expires_at,
        }
      );
    });
    return principal ?? null;
  }

  async createToken(principal: DeveloperPrincipal, dto: CreateDeveloperTokenDto, request: RequestMeta) {
    const expiresAt = dto.expires_at ? new Date(dto.expires_at) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now())
      throw new DomainError('validation_failed', 'expires_at must be in the future', {
        details: { expires_at: ['must be in the future'] },
      });
    const token = generateToken('dat_');
    return this.dataSource.transaction(async (manager) => {
      const saved = await manager.save(
        DeveloperToken,
        manager.create(DeveloperToken, { developerId: principal.developerId, label: dto.label, tokenHash: sha256Hex(token), expiresAt }),
      );
      await this.audit.record(manager, {
        eventType: 'dev_token_create',
        workspaceId: null,
        request,
        actor: { type: 'developer', id: principal.developerId, email: principal.email },
        target: { type: 'DeveloperToken', id: saved.id },
        metadata: { label: dto.label },
      });
      return {
        id: saved.id,
        label: saved.label,
        token,
        expires_at: expiresAt?.toISOString() ?? null,
        created_at: saved.createdAt.toISOString(),
      };
    });
  }

  async listTokens(developerId: string) {
    const rows = await this.tokens.find({ where: { developerId, revokedAt: IsNull() }, order: { createdAt: 'ASC' } });
    return rows.map((t) => ({
      id: t.id,
      label: t.label,
      expires_at: t.expiresAt?.toISOString() ?? null,
      created_at: t.createdAt.toISOString(),
    }));
  }

  async revokeToken(principal: DeveloperPrincipal, tokenId: string, request: RequestMeta): Promise<void> {
    if (!isUuid(tokenId)) throw notFound('token');
    const hash = await this.dataSource.transaction(async (manager) => {
      const [rows] = (await manager.query(
        `UPDATE developer_tokens SET revoked_at = now() WHERE id = $1 AND developer_id = $2 AND revoked_at IS NULL RETURNING token_hash`,
        [tokenId, principal.developerId],
      )) as [{ token_hash: string }[], number];
      if (!rows[0]) throw notFound('token');
      // Delivered at commit to every instance's credential cache.
      await notifyCredentialRevoked(manager, rows[0].token_hash);
      await this.audit.record(manager, {
        eventType: 'dev_token_revoke',
        workspaceId: null,
        request,
        actor: { type: 'developer', id: principal.developerId, email: principal.email },
        target: { type: 'DeveloperToken', id: tokenId },
      });
      return rows[0].token_hash;
    });
    // This instance evicts synchronously, after commit, before answering.
    this.tokenCache.evict(hash);
  }
}
