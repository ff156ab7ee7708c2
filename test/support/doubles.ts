/**
 * A test double of a class for service unit specs: every method is a `jest.fn()` created on first
 * use, so a spec sets up only what the unit under test calls (`repo.findById.mockResolvedValue(…)`).
 */
export function newDouble<T extends object>(): jest.Mocked<T> {
  const methods = new Map<PropertyKey, jest.Mock>();
  return new Proxy({} as jest.Mocked<T>, {
    get(_target, key) {
      // Not a thenable: `await double` must not call a mock.
      if (key === 'then') return undefined;
      let fn = methods.get(key);
      if (!fn) {
        fn = jest.fn();
        methods.set(key, fn);
      }
      return fn;
    },
  });
}
