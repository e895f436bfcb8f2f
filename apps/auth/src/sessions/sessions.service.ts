import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import type { AuthEvent } from '@meter/contracts';
import { dummyPasswordHash, hashPassword, passwordNeedsRehash, randomToken, sha256Hex, verifyPassword } from '@meter/crypto';
import { ProblemException } from '@meter/http';
import { DataSource } from 'typeorm';
import { appendEvents, assertUpdated } from '../events/event-store';
import { newEvent } from '../events/new-event';
import { OutboxRelayService } from '../events/outbox-relay.service';
import { normalizeEmail } from '../organizations/organization-input';
import type { CurrentAdminInfo } from './current-admin';
import { LoginThrottle } from './login-throttle';
import { adminByEmail, rehashAdminPassword, type AdminRow } from '../organizations/organization-store';
import { endSession, insertSession, liveSession } from './session-store';

export interface IssuedSession {
  accessToken: string;
  expiresIn: number;
}

/** Opaque bearer token; the prefix lets secret scanners recognise a leaked one. */
export const SESSION_TOKEN_PREFIX = 'mst_';

// A 401 names the scheme the API's other routes take (RFC 9110 §15.5.2): the session token login issues.
export const invalidCredentials = () => new ProblemException(401, 'invalid_credentials', 'email or password is wrong', {}, { 'WWW-Authenticate': 'Bearer' });

@Injectable()
export class SessionsService implements OnModuleInit {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LoginThrottle) private readonly throttle: LoginThrottle,
    @Inject(OutboxRelayService) private readonly outbox: OutboxRelayService,
  ) {}

  /** Made at start so the first login with an unknown email is not slower than the others. */
  async onModuleInit() {
    await dummyPasswordHash();
  }

  async login(emailInput: string, password: string, address: string): Promise<IssuedSession> {
    const email = normalizeEmail(emailInput);
    await this.throttle.takeAttempt(email, address);
    let admin: AdminRow | undefined;
    try {
      admin = await adminByEmail(this.dataSource.manager, email);
    } catch (error) {
      // Not a wrong password: the attempt counts nothing (a database outage must not lock admins out).
      await this.throttle.releaseAttempt(email, address);
      throw error;
    }
    // An unknown email still costs one Argon2id verification (against the dummy hash), so timing tells nothing.
    const passwordOk = await verifyPassword(admin?.password_hash, password);
    // The attempt is already counted as a failure (takeAttempt); only a success gives it back.
    if (!admin || !passwordOk || !admin.active) throw invalidCredentials();
    await this.throttle.recordSuccess(email, address);
    const session = await this.startSession(admin, password);
    this.outbox.nudge();
    return session;
  }

  /** The session behind a bearer token, if it is known, unexpired, not ended and its admin still active. */
  async authenticate(token: string): Promise<CurrentAdminInfo | undefined> {
    if (!token.startsWith(SESSION_TOKEN_PREFIX) || token.length > 200) return undefined;
    const row = await liveSession(this.dataSource.manager, sha256Hex(token));
    return row && { sessionId: row.session_id, adminId: row.admin_id, orgId: row.org_id, email: row.email };
  }

  async logout(admin: CurrentAdminInfo): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const version = await endSession(manager, admin.sessionId);
      if (version === undefined) return;
      await appendEvents(manager, [
        newEvent(
          'session.ended',
          { aggregateId: admin.sessionId, orgId: admin.orgId, version },
          { session_id: admin.sessionId, admin_id: admin.adminId, reason: 'logout' },
        ),
      ]);
    });
    this.outbox.nudge();
  }

  private async startSession(admin: AdminRow, password: string): Promise<IssuedSession> {
    const accessToken = `${SESSION_TOKEN_PREFIX}${randomToken(32)}`;
    const sessionId = `ses_${randomToken(16)}`;
    const ttl = this.config.SESSION_TTL_SECONDS;
    const now = new Date();
    const expiresAt = new Date(now.getTime() + ttl * 1000);
    const rehashed = passwordNeedsRehash(admin.password_hash) ? await hashPassword(password) : undefined;
    await this.dataSource.transaction(async (manager) => {
      await insertSession(manager, { id: sessionId, tokenHash: sha256Hex(accessToken), adminId: admin.id, orgId: admin.org_id, createdAt: now, expiresAt });
      const events: AuthEvent[] = [
        newEvent(
          'session.started',
          { aggregateId: sessionId, orgId: admin.org_id, version: 1 },
          { session_id: sessionId, admin_id: admin.id, expires_at: expiresAt.toISOString() },
          now,
        ),
      ];
      if (rehashed) {
        assertUpdated(await rehashAdminPassword(manager, admin.id, admin.version, rehashed), admin.id);
        events.push(
          newEvent('admin.password_rehashed', { aggregateId: admin.id, orgId: admin.org_id, version: admin.version + 1 }, { admin_id: admin.id }, now),
        );
      }
      await appendEvents(manager, events);
    });
    return { accessToken, expiresIn: ttl };
  }
}
