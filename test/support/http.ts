export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  /** A raw string body is sent as is (with the content type given in headers). */
  body?: unknown;
}

/** A small HTTP client bound to one app's base URL. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly defaultToken?: string,
  ) {}

  withToken(token: string): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }

  async request<T = any>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const token = options.token ?? this.defaultToken;
    if (token && !('x-auth-token' in headers)) headers['x-auth-token'] = token;
    let body: string | undefined;
    if (options.body !== undefined) {
      if (typeof options.body === 'string') body = options.body;
      else {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  patch<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PATCH', path, { ...options, body });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}

/** Polls until `probe` returns a truthy value; no fixed sleeps in tests. */
export async function eventually<T>(
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value as T;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 50));
  }
  throw new Error(
    `Timed out waiting for ${options.what ?? 'condition'}${lastError ? `: ${(lastError as Error).message}` : ''}`,
  );
}

/** Fails, showing the answer, when a set-up request did not get the expected status. */
export function expectStatus<T>(r: ApiResponse<T>, status: number, what: string): ApiResponse<T> {
  if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status}: ${r.text}`);
  return r;
}
