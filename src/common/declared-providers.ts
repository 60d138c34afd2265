import type { Type } from '@nestjs/common';
import type { DiscoveryService } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';

/**
 * How a module lower in the graph serves contributions from modules above it (decision 0964): the
 * contributing provider carries a class mark made here, and the lower module lists the marked
 * providers once, through Nest's DiscoveryService, when the application bootstraps. Nothing registers
 * itself at init and nothing fills another module's slot; the arrow stays one way (the contributor
 * imports the module it contributes to, never the reverse).
 */
export interface Declaration<M> {
  /** Marks a class; `T` is the shape the lower module expects of it, checked where the mark is put. */
  mark<T>(meta: M): (target: Type<T>) => void;
  /** The providers marked so, each instance once, with what its mark says. */
  providers<T>(discovery: DiscoveryService): DeclaredProvider<T, M>[];
}

export interface DeclaredProvider<T, M> {
  instance: T;
  meta: M;
  /** The provider's class name, for error messages. */
  name: string;
}

/**
 * A kind of contribution. `what` names it in errors ("a grant handler"). Marks are plain reflect
 * metadata under a key of their own, so one class may carry several kinds (Nest's createDecorator
 * links a class to one key only).
 */
export function declaration<M = Record<string, never>>(what: string): Declaration<M> {
  const key = Symbol(what);
  return {
    mark:
      <T>(meta: M) =>
      (target: Type<T>) => {
        Reflect.defineMetadata(key, meta, target);
      },
    providers<T>(discovery: DiscoveryService): DeclaredProvider<T, M>[] {
      const found = new Map<unknown, DeclaredProvider<T, M>>();
      for (const wrapper of discovery.getProviders()) {
        const type = classOf(wrapper);
        if (!type || !Reflect.hasOwnMetadata(key, type)) continue;
        // A request-scoped contributor would be one instance per request: a singleton never holds one.
        if (!wrapper.isDependencyTreeStatic()) throw new Error(`${type.name} is ${what} but not a singleton`);
        const instance: unknown = wrapper.instance;
        // An alias (useExisting) is the same instance, listed once.
        if (!instance || found.has(instance)) continue;
        found.set(instance, { instance: instance as T, meta: Reflect.getOwnMetadata(key, type) as M, name: type.name });
      }
      return [...found.values()];
    },
  };
}

/** The class of a provider: its metatype, or for a factory the class of what it made. */
function classOf(wrapper: InstanceWrapper): Type | undefined {
  if (wrapper.metatype && !wrapper.inject) return wrapper.metatype as Type;
  const instance: unknown = wrapper.isDependencyTreeStatic() ? wrapper.instance : undefined;
  return instance !== null && typeof instance === 'object' ? (instance.constructor as Type) : undefined;
}
