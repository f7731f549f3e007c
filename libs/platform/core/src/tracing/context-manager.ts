import { AsyncLocalStorage } from 'node:async_hooks';
import { type Context, type ContextManager, ROOT_CONTEXT } from '@opentelemetry/api';

/**
 * The active OpenTelemetry context follows async work (promises, timers, callbacks) through
 * AsyncLocalStorage, as the correlation id does. The trace SDK ships only a synchronous
 * (stack-based) manager, and the async-hooks package is not needed for this much.
 */
export class AsyncLocalStorageContextManager implements ContextManager {
  private storage = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const target = thisArg === undefined ? fn : (fn.bind(thisArg) as F);
    return this.storage.run(context, target, ...args);
  }

  /** Binds functions; other targets (event emitters) are returned unchanged. */
  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const run = (thisArg: unknown, args: unknown[]) => this.with(context, target as (...a: unknown[]) => unknown, thisArg, ...args);
    return function (this: unknown, ...args: unknown[]) {
      return run(this, args);
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    this.storage = new AsyncLocalStorage<Context>();
    return this;
  }
}
