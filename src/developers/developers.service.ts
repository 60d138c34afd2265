import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { CredentialCache } from '../common/auth/credential-cache';
import { notifyCredentialRevoked } from '../common/auth/credential-revocations.repository';
import { DeveloperPrincipal, DeveloperSessionAuthenticator } from '../common/auth/principal';
import { Clock } from '../common/clock';
import { PasswordHasher } from '../common/crypto/password-hasher';
import { generateToken, safeEqual, sha256Hex } from '../common/crypto/tokens';
import { isUniqueViolation } from '../common/db-errors';
import { DomainError } from '../common/errors';
import { isUuid } from '../common/ids';
import { RequestMeta } from '../common/request-context';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UnitOfWork } from '../database/unit-of-work';
import { DeveloperSessionsRepository } from './developer-sessions.repository';
import { DeveloperTokensRepository } from './developer-tokens.repository';
import { DevelopersRepository } from './developers.repository';
import { CreateDeveloperTokenDto, DeveloperLoginDto, SignupDto } from './dto/developer-auth.dto';
import { Developer } from './entities/developer.entity';
import { COMMON_ERRORS, notFound } from '../common/common.errors';
import { DEVELOPER_ERRORS } from './developers.errors';
import type { ViewOf } from '../api-docs/response-schema';
import type { DeveloperSchema } from './developers.schemas';

export type DeveloperView = ViewOf<typeof DeveloperSchema>;

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
    private readonly uow: UnitOfWork,
    private readonly developers: DevelopersRepository,
    private readonly sessions: DeveloperSessionsRepository,
    private readonly tokens: DeveloperTokensRepository,
    private readonly hasher: PasswordHasher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokenCache: CredentialCache,
    private readonly clock: Clock,
  ) {}

  async signup(dto: SignupDto): Promise<DeveloperView> {
    if (!this.config.DEVELOPER_SIGNUP_ENABLED) {
      throw new DomainError(COMMON_ERRORS.forbidden, 'Developer signup is disabled on this deployment');
    }
    const passwordHash = await this.hasher.hash(dto.password);
    try {
      return toDeveloperView(await this.developers.insert({ email: dto.email, name: dto.name, passwordHash }));
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError(DEVELOPER_ERRORS.email_taken, 'A developer with this email already exists');
      throw err;
    }
  }

  async login(dto: DeveloperLoginDto): Promise<{ developer: DeveloperView; sessionToken: string; csrfToken: string; expiresAt: Date }> {
    const developer = await this.developers.findWithPasswordByEmail(dto.email);
    const ok = developer
      ? await this.hasher.verify(developer.passwordHash, dto.password)
      : await this.hasher.verifyAgainstDummy(dto.password);
    if (!developer || !ok) throw new DomainError(DEVELOPER_ERRORS.invalid_credentials, 'Email or password is incorrect');
    const sessionToken = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const expiresAt = new Date(this.clock.now().getTime() + this.config.DEVELOPER_SESSION_TTL_SECONDS * 1000);
    await this.sessions.insert({ developerId: developer.id, tokenHash: sha256Hex(sessionToken), csrfToken, expiresAt });
    return { developer: toDeveloperView(developer), sessionToken, csrfToken, expiresAt };
  }

  async logout(sessionToken: string | undefined): Promise<void> {
    if (sessionToken) await this.sessions.deleteByHash(sha256Hex(sessionToken));
  }

  async me(developerId: string): Promise<DeveloperView> {
    const developer = await this.developers.findById(developerId);
    if (!developer) throw notFound('developer');
    return toDeveloperView(developer);
  }

  async authenticateSession(sessionToken: string, csrfHeader: string | undefined, unsafeMethod: boolean): Promise<DeveloperPrincipal> {
    const session = await this.sessions.findLive(sha256Hex(sessionToken), this.clock.now());
    if (!session) throw new DomainError(COMMON_ERRORS.unauthorized, 'Session expired or invalid; sign in again');
    if (unsafeMethod && !(csrfHeader && safeEqual(csrfHeader, session.csrfToken))) {
      throw new DomainError(DEVELOPER_ERRORS.csrf_failed, 'Missing or wrong X-CSRF-Token header');
    }
    return { kind: 'developer', developerId: session.developerId, email: session.email, via: 'session' };
  }

  /** One indexed read by hash, or a hit in the credential cache, which every revocation empties on every instance. */
  async authenticateToken(token: string): Promise<DeveloperPrincipal | null> {
    if (!token.startsWith('dat_') || token.length > 200) return null;
    const hash = sha256Hex(token);
    const principal = await this.tokenCache.resolve<DeveloperPrincipal>('developer', hash, async () => {
      const row = await this.tokens.findUsable(hash, this.clock.now());
      return (
        row && {
          principal: { kind: 'developer', developerId: row.developerId, email: row.email, via: 'token', tokenId: row.tokenId },
          expiresAt: row.expiresAt,
        }
      );
    });
    return principal ?? null;
  }

  async createToken(principal: DeveloperPrincipal, dto: CreateDeveloperTokenDto, request: RequestMeta) {
    const expiresAt = dto.expires_at ? new Date(dto.expires_at) : null;
    if (expiresAt && expiresAt.getTime() <= this.clock.now().getTime()) {
      throw new DomainError(COMMON_ERRORS.validation_failed, 'expires_at must be in the future', {
        details: { expires_at: ['must be in the future'] },
      });
    }
    const token = generateToken('dat_');
    return this.uow.run(async (tx, events) => {
      const saved = await this.tokens.insert(tx, {
        developerId: principal.developerId,
        label: dto.label,
        tokenHash: sha256Hex(token),
        expiresAt,
      });
      events.emit('api_token_create', {
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
    const rows = await this.tokens.listUnrevoked(developerId);
    return rows.map((t) => ({
      id: t.id,
      label: t.label,
      expires_at: t.expiresAt?.toISOString() ?? null,
      created_at: t.createdAt.toISOString(),
    }));
  }

  async revokeToken(principal: DeveloperPrincipal, tokenId: string, request: RequestMeta): Promise<void> {
    if (!isUuid(tokenId)) throw notFound('token');
    await this.uow.run(async (tx, events) => {
      const revoked = await this.tokens.revoke(tx, principal.developerId, tokenId);
      if (!revoked) throw notFound('token');
      // Delivered at commit to every instance's credential cache; answered once every instance evicted it.
      const notice = await notifyCredentialRevoked(tx, revoked);
      events.afterCommit('evict the revoked developer token everywhere', () => this.tokenCache.evictEverywhere(notice));
      events.emit('api_token_revoke', {
        workspaceId: null,
        request,
        actor: { type: 'developer', id: principal.developerId, email: principal.email },
        target: { type: 'DeveloperToken', id: tokenId },
      });
    });
  }
}
