import 'reflect-metadata';
import { Injectable, Module, Scope } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { declaration } from './declared-providers';

interface Greeter {
  greet(): string;
}

const greeters = declaration<{ language: string }>('a greeter');
const Greets = (language: string) => greeters.mark<Greeter>({ language });
const farewells = declaration('a farewell');

@Injectable()
@Greets('en')
class English implements Greeter {
  greet() {
    return 'hello';
  }
}

@Injectable()
@Greets('fr')
@farewells.mark<Greeter>({})
class French implements Greeter {
  greet() {
    return 'bonjour';
  }
}

@Injectable()
class Unmarked implements Greeter {
  greet() {
    return 'hi';
  }
}

@Injectable({ scope: Scope.REQUEST })
@Greets('de')
class PerRequest implements Greeter {
  greet() {
    return 'hallo';
  }
}

async function discovered(providers: Parameters<typeof Module>[0]['providers']) {
  const moduleRef = await Test.createTestingModule({ imports: [DiscoveryModule], providers }).compile();
  return moduleRef.get(DiscoveryService);
}

describe('declaration', () => {
  it('lists each marked provider once, with what its mark says, and skips unmarked ones', async () => {
    const discovery = await discovered([English, French, Unmarked, { provide: 'alias', useExisting: French }]);
    const found = greeters.providers<Greeter>(discovery).map(({ instance, meta, name }) => [meta.language, instance.greet(), name]);
    expect(found.sort()).toEqual([
      ['en', 'hello', 'English'],
      ['fr', 'bonjour', 'French'],
    ]);
  });

  it('finds a class under each of its marks', async () => {
    const discovery = await discovered([English, French]);
    expect(farewells.providers<Greeter>(discovery).map(({ name }) => name)).toEqual(['French']);
  });

  it('finds the instance a factory made of a marked class', async () => {
    const discovery = await discovered([{ provide: 'made', useFactory: () => new English() }]);
    expect(greeters.providers<Greeter>(discovery).map(({ meta }) => meta.language)).toEqual(['en']);
  });

  it('refuses a request-scoped contributor: a singleton would hold one request', async () => {
    const discovery = await discovered([English, PerRequest]);
    expect(() => greeters.providers(discovery)).toThrow('PerRequest is a greeter but not a singleton');
  });
});
