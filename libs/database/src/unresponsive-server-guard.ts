import { Client, ClientConfig } from 'pg';

/**
 * A pg Client whose queries, by promise or by callback (as pg-pool's `pool.query` sends them),
 * give up when the server sends nothing back for `ms`: the connection is destroyed, the query fails
 * with ETIMEDOUT and the pool drops the client.
 *
 * statement_timeout cannot do this, as the server enforces it: a frozen or partitioned server
 * never cancels anything. pg's own query_timeout does not do it either, as it leaves the client
 * in the pool with the statement still running on it, possibly inside an open transaction.
 */
export function clientGivingUpAfter(ms: number): typeof Client {
  function GuardedClient(config: ClientConfig): Client {
    const client = new Client(config);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const giveUpLater = () =>
      setTimeout(() => {
        const error = Object.assign(new Error(`PostgreSQL sent no answer within ${ms} ms`), {
          code: 'ETIMEDOUT',
        });
        (
          client as unknown as { connection: { stream: { destroy(e: Error): void } } }
        ).connection.stream.destroy(error);
      }, ms);
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const callback = args[args.length - 1];
      if (typeof callback === 'function') {
        const timer = giveUpLater();
        args[args.length - 1] = (...outcome: unknown[]) => {
          clearTimeout(timer);
          (callback as (...outcome: unknown[]) => void)(...outcome);
        };
        return query(...args);
      }
      const result = query(...args);
      // Anything else (a cursor, a stream) is left as pg answers it.
      if (!(result instanceof Promise)) return result;
      const timer = giveUpLater();
      return result.finally(() => clearTimeout(timer));
    };
    return client;
  }
  return GuardedClient as unknown as typeof Client;
}
