// The HTTP plumbing shared by BotClient and OwnerClient: JSON in and out,
// typed errors, and retries that are safe for money.
//
// Every POST carries an Idempotency-Key (a fresh random one per call unless
// the caller gives one), and every retry of that call sends the same key: the
// service replays its first answer to a retry with the same key and body, so
// a retry after a lost answer cannot fund, buy or sign twice.
import { BotpayError, ErrorCode, errorOf } from "./errors.js";

/** The version sent in User-Agent. */
export const SDK_VERSION = "0.1.0";

/** Settings shared by the bot and owner clients. */
export interface ClientOptions {
  /** The service's address, e.g. "https://pay.example.com". */
  baseUrl: string;
  /** Replaces the platform's fetch (proxies, tests). */
  fetch?: typeof fetch;
  /** User-Agent, so operators can tell bots apart (not every platform lets it be set). */
  userAgent?: string;
  /** Retries after a network error, 429, 5xx or idempotency_key_in_use; 2 unless set (0 turns them off). */
  maxRetries?: number;
  /** Longest wait before one retry in milliseconds (a longer Retry-After is not waited for); 30 000 unless set. */
  maxRetryDelayMs?: number;
  /** Time limit of one attempt in milliseconds; 30 000 unless set. */
  timeoutMs?: number;
}

/** Options of one call. */
export interface CallOptions {
  /**
   * The Idempotency-Key of a POST. Left out, a random one is drawn for the
   * call and reused by its retries. Give your own to make a retry of a whole
   * operation (after a crash of your process, say) safe too.
   */
  idempotencyKey?: string;
  /** X-Request-Id, so your logs and the service's share one identifier. */
  requestId?: string;
  /** Cancels the call, its retries and waits. */
  signal?: AbortSignal;
}

/** One request. */
export interface Request {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path with its values already escaped. */
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** "text" reads the answer as text (skill files); JSON otherwise. */
  accept?: "json" | "text";
  headers?: Record<string, string>;
  /** Non-2xx statuses that are answers rather than errors (304 of a revalidation). */
  acceptStatus?: number[];
}

/** A 2xx answer. */
export interface Answer<T> {
  status: number;
  headers: Headers;
  data: T;
}

/** Statuses worth another try: the request may not have been served. */
const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

export class Transport {
  readonly baseUrl: string;
  private readonly fetchFn: typeof fetch;
  private readonly userAgent: string;
  private readonly maxRetries: number;
  private readonly maxRetryDelayMs: number;
  private readonly timeoutMs: number;

  constructor(options: ClientOptions, private readonly token: string) {
    if (!options.baseUrl) throw new TypeError("botpay: baseUrl is required");
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.userAgent = options.userAgent ?? `botpay-typescript-sdk/${SDK_VERSION}`;
    this.maxRetries = options.maxRetries ?? 2;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** The same settings with another bearer token. */
  withToken(token: string): Transport {
    return new Transport(
      {
        baseUrl: this.baseUrl,
        fetch: this.fetchFn,
        userAgent: this.userAgent,
        maxRetries: this.maxRetries,
        maxRetryDelayMs: this.maxRetryDelayMs,
        timeoutMs: this.timeoutMs,
      },
      token,
    );
  }

  /** The fetch used for every request (x402 resources too). */
  get fetcher(): typeof fetch {
    return this.fetchFn;
  }

  get agent(): string {
    return this.userAgent;
  }

  /** Sends req, retrying when that is safe, and decodes a 2xx answer. */
  async send<T>(req: Request, opts: CallOptions = {}): Promise<Answer<T>> {
    const headers = this.headersOf(req, opts);
    const url = this.urlOf(req);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.attempt(url, req.method, headers, body, opts.signal);
      } catch (err) {
        if (opts.signal?.aborted || attempt >= this.maxRetries) throw err;
        await sleep(backoff(attempt), opts.signal);
        continue;
      }
      const text = await response.text();
      if (response.ok || req.acceptStatus?.includes(response.status)) return { status: response.status, headers: response.headers, data: decode<T>(req, response, text) };
      const error = errorOf(response.status, text, response.headers);
      const delay = this.retryDelay(error, attempt);
      if (delay === undefined) throw error;
      await sleep(delay, opts.signal);
    }
  }

  /** How long to wait before retrying after error, or undefined not to. */
  private retryDelay(error: BotpayError, attempt: number): number | undefined {
    if (attempt >= this.maxRetries) return undefined;
    const inUse = error.status === 409 && error.error === ErrorCode.IdempotencyKeyInUse;
    if (!inUse && !RETRYABLE_STATUS.has(error.status)) return undefined;
    const delay = error.retry_after_seconds !== undefined ? error.retry_after_seconds * 1000 : backoff(attempt);
    return delay > this.maxRetryDelayMs ? undefined : delay;
  }

  private headersOf(req: Request, opts: CallOptions): Record<string, string> {
    const headers: Record<string, string> = { Accept: req.accept === "text" ? "text/markdown, text/plain" : "application/json" };
    if (req.body !== undefined) headers["Content-Type"] = "application/json";
    if (this.userAgent) headers["User-Agent"] = this.userAgent;
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (req.method === "POST") headers["Idempotency-Key"] = opts.idempotencyKey ?? newIdempotencyKey();
    if (opts.requestId) headers["X-Request-Id"] = opts.requestId;
    return { ...headers, ...req.headers };
  }

  private urlOf(req: Request): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined && value !== null && value !== "") params.set(name, String(value));
    }
    const query = params.toString();
    return this.baseUrl + req.path + (query ? `?${query}` : "");
  }

  private async attempt(url: string, method: string, headers: Record<string, string>, body: string | undefined,
    signal: AbortSignal | undefined): Promise<Response> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    return this.fetchFn(url, { method, headers, body, signal: combined, redirect: "error" });
  }
}

function decode<T>(req: Request, response: Response, text: string): T {
  if (req.accept === "text" || response.status === 204 || text === "") return text as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new BotpayError(response.status, undefined, `the ${req.method} ${req.path} answer is not JSON`, response.headers);
  }
}

/** A fresh key: 122 random bits from the platform's crypto. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** Exponential backoff with full jitter: up to 0.5 s, 1 s, 2 s, ... */
function backoff(attempt: number): number {
  return Math.random() * 500 * 2 ** attempt;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Escapes one path value so an odd id cannot reach another route. */
export function pathValue(value: string | number): string {
  return encodeURIComponent(String(value));
}
