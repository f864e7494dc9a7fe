// Paying an x402 resource through botpay's signing endpoint: the bot's key
// never leaves the service. Both protocol versions: a 402 with a
// PAYMENT-REQUIRED header is x402 v2 (paid with PAYMENT-SIGNATURE), one with
// only a JSON body is x402 v1 (paid with X-PAYMENT).
import type { BotClient, SignAnswer, SignedNow } from "./bot.js";
import { isAwaitingApproval } from "./bot.js";
import type { CallOptions } from "./transport.js";

/** How to fetch and pay a resource. */
export interface PayX402Options {
  /** The most the bot agrees to pay, in micro-USDC (1 USDC = 1 000 000). */
  maxAmountUsdc: number;
  /** "GET" unless set. */
  method?: string;
  /** The request body, sent again with the payment (so not a stream). */
  body?: string | Uint8Array<ArrayBuffer>;
  /** Extra request headers (Content-Type of the body, say). */
  headers?: Record<string, string>;
  /**
   * Networks the bot pays on (v1 names such as "base", or CAIP-2 ids such as
   * "eip155:8453"); the first "exact" offer on one of them is paid. Left
   * out, the first "exact" offer is, which suits a vendor that offers
   * the service's own network first.
   */
  networks?: string[];
  /** Options of the signing call (its Idempotency-Key, request id). */
  call?: CallOptions;
  /** Cancels the resource's requests and the signing call. */
  signal?: AbortSignal;
}

/** One offer of a 402 answer, in the form of its version. */
export interface PaymentOffer {
  scheme: string;
  network: string;
  /** v2: the amount in micro-units as a decimal string. */
  amount?: string;
  /** v1: the amount in micro-units as a decimal string. */
  maxAmountRequired?: string;
  payTo: string;
  asset?: string;
  resource?: string;
  maxTimeoutSeconds?: number;
  extra?: Record<string, unknown>;
  [field: string]: unknown;
}

/** The decoded settlement header (PAYMENT-RESPONSE in v2, X-PAYMENT-RESPONSE in v1). */
export interface SettlementResponse {
  success: boolean;
  transaction?: string;
  network?: string;
  payer?: string;
  amount?: string;
  errorReason?: string;
  [field: string]: unknown;
}

/** The outcome of payX402. */
export interface PaidResponse {
  /** The resource's final answer (its body not yet read). */
  response: Response;
  /** Whether a payment was sent (false when the resource did not answer 402). */
  paid: boolean;
  /** The x402 version of the 402 answer, when there was one. */
  version?: 1 | 2;
  /** The offer that was paid. */
  offer?: PaymentOffer;
  /** The signing endpoint's answer. */
  signed?: SignedNow;
  /** The decoded settlement header, when the resource sent one. */
  settlement?: SettlementResponse;
}

/** Why payX402 did not pay. */
export type X402FailureReason = "malformed_402" | "no_offer" | "over_limit" | "awaiting_approval" | "no_signature_header";

/** payX402 refused or could not pay; the resource's 402 answer is attached. */
export class X402PaymentError extends Error {
  constructor(
    readonly reason: X402FailureReason,
    message: string,
    /** The resource's 402 answer. */
    readonly response: Response,
    /** The signing endpoint's answer (with approval_id when awaiting approval). */
    readonly signed?: SignAnswer,
  ) {
    super(`botpay: ${message}`);
    this.name = "X402PaymentError";
  }
}

interface Asked {
  version: 1 | 2;
  offers: PaymentOffer[];
  /** The v1 offers of the body beside a PAYMENT-REQUIRED header (botpay's sellers ask in both). */
  v1Offers: PaymentOffer[];
  /** What goes to the signing endpoint as payment_required. */
  paymentRequired: string | Record<string, unknown>;
  resourceUrl: string | undefined;
}

/** Fetches url and, on a 402, pays it through bot's signing endpoint and fetches it again. */
export async function payX402(bot: BotClient, url: string, options: PayX402Options): Promise<PaidResponse> {
  const first = await fetchResource(bot, url, options, {});
  if (first.status !== 402) return { response: first, paid: false };
  const asked = await readPaymentRequired(first);
  const offer = asked.offers.find((o) => o.scheme === "exact" && (!options.networks || options.networks.includes(o.network)));
  if (!offer) throw new X402PaymentError("no_offer", `the resource offers no exact payment on ${options.networks?.join(", ") ?? "any network"}`, first);
  const amount = amountOf(offer, first);
  if (amount > options.maxAmountUsdc) {
    throw new X402PaymentError("over_limit", `the resource asks ${amount} micro-USDC, more than ${options.maxAmountUsdc}`, first);
  }
  const answer = await bot.sign(
    { resource_url: asked.resourceUrl || offer.resource || url, amount_usdc: amount, recipient_address: offer.payTo, payment_required: asked.paymentRequired },
    { ...options.call, signal: options.signal ?? options.call?.signal },
  );
  if (isAwaitingApproval(answer)) {
    throw new X402PaymentError("awaiting_approval", `the payment awaits the owner's approval (approval ${answer.approval_id})`, first, answer);
  }
  const version = versionToPay(asked, offer, answer);
  if (!version) {
    throw new X402PaymentError("no_signature_header", "the signing endpoint returned no PAYMENT-SIGNATURE for this x402 v2 resource", first, answer);
  }
  const response = await fetchResource(bot, url, options, paymentHeaderOf(version, answer));
  return { response, paid: true, version, offer, signed: answer, settlement: settlementOf(response, version) };
}

/**
 * The version to pay in: the 402's own, except that a v2 resource that
 * also asks in v1 for the same payee and amount (as botpay's sellers do) is
 * paid in v1 when the service signed no v2 payload (a service older than
 * x402 v2 signing). The authorization is the same either way.
 */
function versionToPay(asked: Asked, offer: PaymentOffer, signed: SignedNow): 1 | 2 | undefined {
  if (asked.version === 1 || signed.payment_signature_header) return asked.version;
  const same = asked.v1Offers.some((o) => o.scheme === "exact" && o.payTo?.toLowerCase() === offer.payTo?.toLowerCase() &&
    o.maxAmountRequired === offer.amount);
  return same ? 1 : undefined;
}

function fetchResource(bot: BotClient, url: string, options: PayX402Options, payment: Record<string, string>): Promise<Response> {
  const headers: Record<string, string> = { "User-Agent": bot.transport.agent, ...options.headers, ...payment };
  return bot.transport.fetcher(url, { method: options.method ?? "GET", headers, body: options.body, signal: options.signal });
}

/** The header that carries the payment: PAYMENT-SIGNATURE in v2, X-PAYMENT in v1. */
function paymentHeaderOf(version: 1 | 2, signed: SignedNow): Record<string, string> {
  if (version === 2) return { "PAYMENT-SIGNATURE": signed.payment_signature_header ?? "" };
  // A stock v1 seller reads the standard payload; botpay's sellers read both.
  return { "X-PAYMENT": signed.x_payment_standard_header || signed.x_payment_header };
}

/** Reads PAYMENT-REQUIRED (v2) first, else the v1 JSON body. */
async function readPaymentRequired(response: Response): Promise<Asked> {
  const v1 = await v1BodyOf(response);
  const header = response.headers.get("payment-required");
  if (header) {
    const decoded = decodeBase64Json(header) as { accepts?: PaymentOffer[]; resource?: { url?: string } } | undefined;
    if (!decoded || !Array.isArray(decoded.accepts)) {
      throw new X402PaymentError("malformed_402", "the PAYMENT-REQUIRED header is not base64 of an x402 v2 PaymentRequired", response);
    }
    return { version: 2, offers: decoded.accepts, v1Offers: v1?.accepts ?? [], paymentRequired: header, resourceUrl: decoded.resource?.url };
  }
  if (!v1) throw new X402PaymentError("malformed_402", "the 402 answer has neither PAYMENT-REQUIRED nor an x402 v1 body", response);
  return { version: 1, offers: v1.accepts, v1Offers: v1.accepts, paymentRequired: v1, resourceUrl: undefined };
}

/** The x402 v1 body of a 402 answer, if it is one. */
async function v1BodyOf(response: Response): Promise<{ accepts: PaymentOffer[] } & Record<string, unknown> | undefined> {
  try {
    const body = JSON.parse(await response.clone().text()) as unknown;
    const accepts = (body as { accepts?: unknown } | null)?.accepts;
    return body && typeof body === "object" && Array.isArray(accepts) ? (body as { accepts: PaymentOffer[] }) : undefined;
  } catch {
    return undefined;
  }
}

function amountOf(offer: PaymentOffer, response: Response): number {
  const text = offer.amount ?? offer.maxAmountRequired ?? "";
  const amount = /^[0-9]{1,15}$/.test(text) ? Number(text) : NaN;
  if (!(amount > 0)) throw new X402PaymentError("malformed_402", `the 402 answer asks for ${JSON.stringify(text)} micro-units`, response);
  return amount;
}

/** The decoded settlement header of the paid answer: the version's own first, else the other. */
function settlementOf(response: Response, version: 1 | 2): SettlementResponse | undefined {
  const names = version === 2 ? ["payment-response", "x-payment-response"] : ["x-payment-response", "payment-response"];
  for (const name of names) {
    const value = response.headers.get(name);
    const decoded = value ? decodeBase64Json(value) : undefined;
    if (decoded && typeof decoded === "object") return decoded as SettlementResponse;
  }
  return undefined;
}

/** base64 (standard or URL alphabet, padded or not) of UTF-8 JSON, or undefined. */
export function decodeBase64Json(value: string): unknown {
  try {
    const standard = value.trim().replace(/-/g, "+").replace(/_/g, "/");
    const binary = atob(standard + "=".repeat((4 - (standard.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}
