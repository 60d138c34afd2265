import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { declaration } from '../common/declared-providers';

/**
 * What the hosted login asks of modules above it (they import HostedLoginModule, so it cannot import
 * them): the name of the application a sign-in is for (SAML), the applications a person allowed and the
 * answer to an authorization request a sign-in continues (the OpenID provider), and the company identity
 * provider an address signs in at (SSO connections).
 */
export type HostedLoginPortName = 'login-app-names' | 'application-grants' | 'authorization-continuation' | 'company-sign-in';

const portSources = declaration<HostedLoginPortName>("a source of a hosted login's port");

/**
 * Declares a provider the source of one of the hosted login's ports (decisions 0192, 0964). The hosted
 * login finds it by this mark when the application has started; no provider fills a slot by hand.
 */
export const HostedLoginPort = (port: HostedLoginPortName) => portSources.mark<unknown>(port);

/**
 * The providers marked with @HostedLoginPort, read once from the module graph at bootstrap (before
 * the server listens). A port without a source answers null: that module is not part of this app.
 */
@Injectable()
export class HostedLoginPorts implements OnApplicationBootstrap {
  private readonly sources = new Map<HostedLoginPortName, unknown>();

  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    for (const { instance, meta: port } of portSources.providers<unknown>(this.discovery)) {
      if (this.sources.has(port)) throw new Error(`Two providers declare themselves the source of the hosted login's ${port}`);
      this.sources.set(port, instance);
    }
  }

  /** The source of a port, or null when no module of the app declares one. */
  source<T>(port: HostedLoginPortName): T | null {
    return (this.sources.get(port) as T | undefined) ?? null;
  }

  /** What the port's source answers to `question`, or `otherwise` when no module of the app declares one. */
  ask<T, R>(port: HostedLoginPortName, question: (source: T) => Promise<R>, otherwise: R): Promise<R> {
    const source = this.source<T>(port);
    return source ? question(source) : Promise.resolve(otherwise);
  }
}
