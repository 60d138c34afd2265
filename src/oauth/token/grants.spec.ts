import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { GrantHandler, GrantRegistry, GrantRequest, IssuedTokens, TokenGrant } from './grants';

/** A stand-in for OAuthModule: the registry, and nothing that knows the grants above it. */
@Module({ imports: [DiscoveryModule], providers: [GrantRegistry], exports: [GrantRegistry] })
class CoreModule {}

const issued = (token: string): IssuedTokens => ({
  accessToken: token,
  claims: {} as IssuedTokens['claims'],
});

@Injectable()
@GrantHandler('urn:example:one')
class OneGrant implements TokenGrant {
  handle(grant: GrantRequest) {
    return Promise.resolve(issued(`one:${grant.params.x}`));
  }
}

@Injectable()
@GrantHandler('urn:example:two', 'by-grant')
class TwoGrant implements TokenGrant {
  handle() {
    return Promise.resolve(issued('two'));
  }
}

@Injectable()
@GrantHandler('urn:example:one')
class AnotherOneGrant implements TokenGrant {
  handle() {
    return Promise.resolve(issued('another'));
  }
}

async function boot(grants: Array<new (...args: never[]) => TokenGrant>) {
  @Module({ imports: [CoreModule], providers: grants })
  class FeatureModule {}
  const app = (await Test.createTestingModule({ imports: [FeatureModule] }).compile()).createNestApplication();
  await app.init();
  return app;
}

describe('GrantRegistry', () => {
  it('serves the grants declared by modules above it, with how their clients authenticate', async () => {
    const app = await boot([OneGrant, TwoGrant]);
    const registry = app.get(GrantRegistry);
    expect(registry.grantTypes().sort()).toEqual(['urn:example:one', 'urn:example:two']);
    expect(registry.get('urn:example:one')?.clientAuthentication).toBe('required');
    expect(registry.get('urn:example:two')?.clientAuthentication).toBe('by-grant');
    const one = await registry.get('urn:example:one')?.handler.handle({ params: { x: '1' } } as unknown as GrantRequest);
    expect(one?.accessToken).toBe('one:1');
    expect(registry.get('password')).toBeUndefined();
    await app.close();
  });

  it('refuses to start with two handlers for one grant type', async () => {
    await expect(boot([OneGrant, AnotherOneGrant])).rejects.toThrow('grant urn:example:one declared twice');
  });
});
