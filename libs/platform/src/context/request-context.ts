import { AsyncLocalStorage } from 'node:async_hooks';
import type { Principal } from './principal';

export interface RequestContext {
  requestId: string;
  principal?: Principal;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const requestContext = {
  run<T>(ctx: RequestContext, fn: () => T): T {
    return storage.run(ctx, fn);
  },
  current(): RequestContext | undefined {
    return storage.getStore();
  },
  requestId(): string | undefined {
    return storage.getStore()?.requestId;
  },
};
