// Typed errors. Every non-2xx answer of the service becomes a BotpayError
// carrying the API's error shape ({"error", "message", "request_id", ...}),
// so a bot branches on `err.error` against the ErrorCode constants below.

/**
 * Every error code the service answers, by name. The values are exactly the
 * API's (a test compares them with the service's own list), including the
 * few legacy codes that are sentences.
 */
export const ErrorCode = {
  // Requests in general.
  ValidationError: "validation_error",
  InvalidJSON: "invalid_json",
  InvalidCursor: "invalid_cursor",
  PayloadTooLarge: "payload_too_large",
  MethodNotAllowed: "method_not_allowed",
  NotFound: "not_found",
  RateLimited: "rate_limited",
  IdempotencyKeyReused: "idempotency_key_reused",
  IdempotencyKeyInUse: "idempotency_key_in_use",
  InternalError: "internal_error",
  ServiceUnavailable: "service_unavailable",
  DatabaseUnreachable: "database_unreachable",
  CrossOriginRequest: "cross_origin_request",
  LiveMode: "live_mode",
  // Authentication.
  AuthenticationRequired: "Authentication required",
  Unauthorized: "unauthorized",
  KeySuperseded: "key_superseded",
  TunnelNotInUse: "tunnel_not_in_use",
  // Registration and owners.
  InvalidPairingCode: "invalid_pairing_code",
  DuplicateRegistration: "duplicate_registration",
  EmailTaken: "email_taken",
  InvalidCredentials: "invalid_credentials",
  InvalidClaimToken: "invalid_claim_token",
  AlreadyClaimed: "already_claimed",
  EmailNotVerified: "email_not_verified",
  InvalidLink: "invalid_link",
  LoginThrottled: "login_throttled",
  // Wallets.
  WalletNotActive: "wallet_not_active",
  WalletNotFound: "wallet_not_found",
  WalletFrozen: "wallet_frozen",
  // The signing endpoint (its first two codes are sentences, as documented).
  InvalidSignRequest: "Invalid request",
  SignAuthFailed: "Invalid or missing API key",
  GuardrailBlocked: "guardrail_blocked",
  InsufficientTokenBalance: "insufficient_token_balance",
  PaymentInProgress: "payment_in_progress",
  PaymentIdentifierReused: "payment_identifier_reused",
  NoProcessorWallet: "no_processor_wallet",
  // Purchases, cards and approvals.
  CardIDRequired: "card_id_required",
  InvalidProfile: "invalid_profile",
  InsufficientFunds: "insufficient_funds",
  CardNotActive: "card_not_active",
  CardGuardrailViolation: "card_guardrail_violation",
  AllowanceExceeded: "allowance_exceeded",
  MasterBudgetExceeded: "master_budget_exceeded",
  CardNotFound: "card_not_found",
  AlreadyDecided: "already_decided",
  Expired: "expired",
  TaskAlreadyCompleted: "task_already_completed",
  InvalidCardStatus: "invalid_card_status",
  // Rail5 (the bot's own card).
  ApprovalRequired: "approval_required",
  KeyAlreadyReleased: "key_already_released",
  InvalidCheckoutStatus: "invalid_checkout_status",
  // Earning: checkout pages, invoices, payment links.
  CheckoutPageNotFound: "checkout_page_not_found",
  CheckoutPageExpired: "checkout_page_expired",
  MissingInvoiceID: "missing_invoice_id",
  OnlyDraftInvoicesCanBeSent: "only_draft_invoices_can_be_sent",
  SendFailed: "send_failed",
  PaymentLinkNotPending: "payment_link_not_pending",
  InvoiceNotPayable: "invoice_not_payable",
  InvoiceAlreadyPaid: "invoice_already_paid",
  MethodNotAllowedOnPage: "method_not_allowed_on_page",
  DuplicatePayment: "duplicate_payment",
  // Refunds.
  RefundExceedsAmount: "refund_exceeds_amount",
  NotRefundable: "not_refundable",
  RefundRefused: "refund_refused",
  ChainUnavailable: "chain_unavailable",
  // Owner decision links and vendors.
  LinkExpired: "link_expired",
  LinkUsed: "link_used",
  VendorNotFound: "vendor_not_found",
} as const;

/** One of the ErrorCode values. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The error shape of the API. */
export interface ErrorBody {
  error: string;
  message?: string;
  request_id?: string;
  details?: Record<string, string>;
  retry_after_seconds?: number;
  reason?: string;
}

/**
 * A non-2xx answer of the service. Its fields mirror the API's error shape:
 * `error` (the code), `message`, `request_id`, `details`,
 * `retry_after_seconds`, `reason`; `status` is the HTTP status.
 */
export class BotpayError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /**
   * The "error" field: an ErrorCode value such as "validation_error". Empty
   * when the body was not the service's JSON (a proxy's HTML page).
   */
  readonly error: string;
  /** The request's id in the service's logs: quote it when reporting a problem. */
  readonly request_id: string;
  /** Field → problem, for validation errors. */
  readonly details: Record<string, string>;
  /** With 429 rate_limited: from the body, else the Retry-After header. */
  readonly retry_after_seconds: number | undefined;
  /** Why a signing request was refused (403 guardrail_blocked). */
  readonly reason: string | undefined;

  constructor(status: number, body: ErrorBody | undefined, fallbackMessage: string, headers?: Headers) {
    super(body?.message || fallbackMessage);
    this.name = "BotpayError";
    this.status = status;
    this.error = body?.error ?? "";
    this.request_id = body?.request_id || (headers?.get("x-request-id") ?? "");
    this.details = body?.details ?? {};
    this.retry_after_seconds = body?.retry_after_seconds ?? retryAfterHeader(headers);
    this.reason = body?.reason;
  }

  /** "botpay: HTTP 403 wallet_frozen: … (request …)", for logs. */
  override toString(): string {
    const code = this.error ? ` ${this.error}` : "";
    const request = this.request_id ? ` (request ${this.request_id})` : "";
    const details = Object.keys(this.details).length ? ` ${JSON.stringify(this.details)}` : "";
    return `botpay: HTTP ${this.status}${code}: ${this.message}${details}${request}`;
  }
}

/** Whether err is a BotpayError with the given code. */
export function isBotpayError(err: unknown, code?: ErrorCodeValue | string): err is BotpayError {
  return err instanceof BotpayError && (code === undefined || err.error === code);
}

function retryAfterHeader(headers: Headers | undefined): number | undefined {
  // Only the delay-seconds form: the service never sends an HTTP date.
  const n = Number(headers?.get("retry-after") ?? "");
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** Turns a non-2xx answer into a BotpayError; never throws itself. */
export function errorOf(status: number, text: string, headers: Headers): BotpayError {
  let body: ErrorBody | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && typeof (parsed as ErrorBody).error === "string") {
      body = parsed as ErrorBody;
    }
  } catch {
    // Not the service's JSON: keep the start of the text as the message.
  }
  const fallback = text.trim().slice(0, 200) || `HTTP ${status}`;
  return new BotpayError(status, body, fallback, headers);
}
