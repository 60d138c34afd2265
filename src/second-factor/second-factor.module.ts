import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AnomaliesModule } from '../anomalies/anomalies.module';
import { CommonModule } from '../common/common.module';
import { EmailVerificationModule } from '../email-verification/email-verification.module';
import { EndUserDirectoryModule } from '../end-user-directory/end-user-directory.module';
import { MailModule } from '../mail/mail.module';
import { SessionsModule } from '../sessions/sessions.module';
import { EndUserPasskey } from './entities/end-user-passkey.entity';
import { EndUserRecoveryCode } from './entities/end-user-recovery-code.entity';
import { EndUserTotp } from './entities/end-user-totp.entity';
import { EndUserMfaChallenge } from './entities/mfa-challenge.entity';
import { SignInPolicy } from './entities/sign-in-policy.entity';
import { WebAuthnChallenge } from './entities/webauthn-challenge.entity';
import { FactorVerifier } from './factor-verifier';
import { MfaChallengesService } from './mfa-challenges.service';
import { MfaController } from './mfa.controller';
import { MfaRepository } from './mfa.repository';
import { MfaService } from './mfa.service';
import { PasskeyCeremonies } from './passkeys/passkey-ceremonies';
import { PasskeysController } from './passkeys/passkeys.controller';
import { PasskeysRepository } from './passkeys/passkeys.repository';
import { PasskeysService } from './passkeys/passkeys.service';
import { PasswordlessSignIn } from './passkeys/passwordless-sign-in.service';
import { SignInGate } from './sign-in-gate.service';
import { SignInPolicyController } from './sign-in-policy.controller';
import { SignInPolicyRepository } from './sign-in-policy.repository';
import { SignInPolicyService } from './sign-in-policy.service';

/**
 * The second factor: authenticator apps (TOTP) and recovery codes, passkeys (also for a sign-in
 * without password), the challenges of a sign-in's second step, and the workspace's sign-in policy
 * (the gate that decides, with the anomaly detectors' geolocation, whether a sign-in steps up).
 * Below the sign-in (EndUsersModule) and the hosted login, which use its services.
 */
@Module({
  imports: [
    CommonModule,
    AnomaliesModule,
    MailModule,
    EndUserDirectoryModule,
    EmailVerificationModule,
    SessionsModule,
    TypeOrmModule.forFeature([EndUserTotp, EndUserPasskey, WebAuthnChallenge, EndUserRecoveryCode, EndUserMfaChallenge, SignInPolicy]),
  ],
  controllers: [MfaController, PasskeysController, SignInPolicyController],
  providers: [
    MfaRepository,
    MfaService,
    FactorVerifier,
    MfaChallengesService,
    PasskeysRepository,
    PasskeyCeremonies,
    PasskeysService,
    PasswordlessSignIn,
    SignInPolicyRepository,
    SignInPolicyService,
    SignInGate,
  ],
  exports: [MfaService, MfaChallengesService, PasskeysService, PasswordlessSignIn, SignInGate],
})
export class SecondFactorModule {}
