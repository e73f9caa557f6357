import { Agent } from 'undici';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  contentType: string;
  text: string;
  json: T;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is, not JSON-encoded (malformed JSON, multipart). */
  rawBody?: string | Buffer | FormData;
  headers?: Record<string, string>;
  key?: string | null;
}

/**
 * Idle connections are closed by the client after 10 s, long before any server of the stack does
 * (65 s): a pooled connection the server closes while a request is being sent on it fails that
 * request with "other side closed". Every test file of a jest worker shares this pool, so a
 * connection can sit idle through whole files before the next one picks it up.
 */
const connections = new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 10_000 });

/** A partner's view of the API: every call carries its key unless told otherwise. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly key?: string,
  ) {}

  withKey(key: string): ApiClient {
    return new ApiClient(this.baseUrl, key);
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? this.key : options.key;
    if (key) headers['X-Api-Key'] = key;
    let body: string | Buffer | FormData | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual', dispatcher: connections } as RequestInit);
    const text = await response.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: response.status, headers: response.headers, contentType: response.headers.get('content-type') ?? '', text, json };
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
