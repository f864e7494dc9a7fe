// Verifying botpay webhook deliveries. Every delivery is a POST whose raw
// body is {event, timestamp, bot_id, data}, signed twice with the bot's
// webhook_secret:
//
//  - X-Service-Signature: "sha256=" + hex HMAC-SHA256 of the raw body, keyed
//    with the secret string as it was handed out;
//  - webhook-id, webhook-timestamp, webhook-signature: "v1," + base64
//    HMAC-SHA256 of "id.timestamp.body", as the Standard Webhooks
//    specification says (keyed with the base64 decoding of the part after
//    "whsec_"); a receiver checks the timestamp to refuse replays.
//
// verifyWebhook requires both, and the timestamp within the tolerance.
// Verify the raw bytes of the body, before any JSON decoding; deduplicate by
// the event id (X-Service-Delivery = webhook-id), stable across retries.
// Only the platform's Web Crypto is used: comparisons happen inside
// crypto.subtle.verify, in constant time.

/** Header names of a delivery (lower case, as fetch and node report them). */
export const WebhookHeader = {
  Signature: "x-service-signature",
  Event: "x-service-event",
  Delivery: "x-service-delivery",
  WebhookId: "webhook-id",
  WebhookTimestamp: "webhook-timestamp",
  WebhookSignature: "webhook-signature",
} as const;

/** How far webhook-timestamp may be from now, in seconds, unless told otherwise. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** What verifyWebhook needs. */
export interface WebhookVerifyOptions {
  /** The webhook_secret from the bot's registration (whsec_…). */
  secret: string;
  /** Bounds the age (and clock skew) of webhook-timestamp; 300 s unless set. */
  toleranceSeconds?: number;
  /**
   * Accepts a delivery with X-Service-Signature but none of the Standard
   * Webhooks headers. Its age cannot be checked, so a captured delivery
   * could be replayed at any later time: only for a proxy that strips them.
   */
  allowMissingTimestamp?: boolean;
  /** Replaces the clock (milliseconds since the epoch), for tests. */
  now?: () => number;
}

/** A verified delivery. */
export interface WebhookEvent<D = Record<string, unknown>> {
  /** The event id (X-Service-Delivery): the same on every retry. */
  id: string;
  event: string;
  timestamp: string;
  bot_id: string;
  data: D;
}

/** Why a delivery was refused. */
export type WebhookFailure = "missing_signature" | "bad_signature" | "timestamp" | "malformed_body";

/** A delivery that did not verify: answer it 401 and do not act on it. */
export class WebhookVerificationError extends Error {
  constructor(readonly reason: WebhookFailure, message: string) {
    super(`webhook: ${message}`);
    this.name = "WebhookVerificationError";
  }
}

/** Headers as fetch (Headers) or node's http module (a record) give them. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

/** Verifies a delivery against its raw body and decodes it; throws WebhookVerificationError. */
export async function verifyWebhook<D = Record<string, unknown>>(
  options: WebhookVerifyOptions, headers: HeaderSource, body: string | Uint8Array,
): Promise<WebhookEvent<D>> {
  const raw = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const get = (name: string) => headerOf(headers, name);
  if (!(await verifyServiceSignature(options.secret, raw, get(WebhookHeader.Signature)))) {
    throw failure(get(WebhookHeader.Signature) ? "bad_signature" : "missing_signature");
  }
  const id = get(WebhookHeader.WebhookId), ts = get(WebhookHeader.WebhookTimestamp), sig = get(WebhookHeader.WebhookSignature);
  if (id || ts || sig || !options.allowMissingTimestamp) {
    const now = options.now?.() ?? Date.now();
    await verifyStandardSignature(options.secret, { id, timestamp: ts, signatures: sig }, raw, now, options.toleranceSeconds);
  }
  let event: WebhookEvent<D>;
  try {
    event = JSON.parse(new TextDecoder().decode(raw)) as WebhookEvent<D>;
  } catch {
    throw new WebhookVerificationError("malformed_body", "the signed body is not JSON");
  }
  event.id = get(WebhookHeader.Delivery) || id;
  return event;
}

/** Checks an X-Service-Signature value ("sha256=<hex>") in constant time. */
export async function verifyServiceSignature(secret: string, body: Uint8Array, header: string): Promise<boolean> {
  const hex = /^\s*sha256=([0-9a-fA-F]{64})\s*$/.exec(header)?.[1];
  if (!hex) return false;
  const signature = Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
  return hmacVerify(new TextEncoder().encode(secret), signature, body);
}

/** The Standard Webhooks headers of a delivery. */
export interface StandardHeaders {
  id: string;
  timestamp: string;
  /** Space-separated "v1,<base64>" signatures. */
  signatures: string;
}

/**
 * Checks Standard Webhooks headers: the timestamp within tolerance of now
 * (milliseconds), and one "v1," signature matching HMAC-SHA256 of
 * "id.timestamp.body" keyed with standardKey(secret). Throws
 * WebhookVerificationError.
 */
export async function verifyStandardSignature(secret: string, h: StandardHeaders, body: Uint8Array, nowMs: number,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS): Promise<void> {
  if (!/^[0-9]{1,12}$/.test(h.timestamp)) throw failure("timestamp");
  if (Math.abs(nowMs / 1000 - Number(h.timestamp)) > toleranceSeconds) throw failure("timestamp");
  if (!h.id || !h.signatures) throw failure("missing_signature");
  const prefix = new TextEncoder().encode(`${h.id}.${h.timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const key = standardKey(secret);
  for (const entry of h.signatures.split(/\s+/)) {
    const [version, value] = entry.split(",", 2);
    if (version !== "v1" || !value) continue;
    const signature = base64Bytes(value);
    if (signature && (await hmacVerify(key, signature, signed))) return;
  }
  throw failure("bad_signature");
}

/**
 * The Standard Webhooks key of a secret: the base64 decoding of the part
 * after "whsec_" (botpay's "whsec_" + 48 hex characters decode to 36 bytes);
 * a secret without the prefix, or whose rest is not base64, is used as it is.
 */
export function standardKey(secret: string): Uint8Array {
  const rest = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : undefined;
  const key = rest !== undefined && /^[A-Za-z0-9+/]+={0,2}$/.test(rest) && rest.length % 4 === 0 ? base64Bytes(rest) : undefined;
  return key && key.length > 0 ? key : new TextEncoder().encode(secret);
}

async function hmacVerify(key: Uint8Array, signature: Uint8Array, data: Uint8Array): Promise<boolean> {
  const subtle = globalThis.crypto.subtle;
  const k = await subtle.importKey("raw", key as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  return subtle.verify("HMAC", k, signature as Uint8Array<ArrayBuffer>, data as Uint8Array<ArrayBuffer>);
}

function base64Bytes(value: string): Uint8Array | undefined {
  try {
    return Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function headerOf(headers: HeaderSource, name: string): string {
  if (headers instanceof Headers) return headers.get(name) ?? "";
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return (Array.isArray(value) ? value[0] : value) ?? "";
  }
  return "";
}

function failure(reason: WebhookFailure): WebhookVerificationError {
  const text: Record<WebhookFailure, string> = {
    missing_signature: "signature header missing",
    bad_signature: "signature does not match",
    timestamp: "timestamp missing, malformed or outside the tolerance",
    malformed_body: "the signed body is not JSON",
  };
  return new WebhookVerificationError(reason, text[reason]);
}
