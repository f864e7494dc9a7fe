// The bot API: a bot's own calls, authenticated with its API key.
import { paginate, type IterateOptions, type PageOptions } from "./pagination.js";
import { Transport, pathValue, type CallOptions, type ClientOptions } from "./transport.js";
import type * as T from "./types.js";
import { payX402, type PaidResponse, type PayX402Options } from "./x402.js";

/** Options of a BotClient: the service's address and the bot's API key. */
export interface BotClientOptions extends ClientOptions {
  /** The bot's API key (bp_live_…); may be empty for a client that only registers. */
  apiKey?: string;
}

/** Calls the bot API. Every method throws a BotpayError on a non-2xx answer. */
export class BotClient {
  /** @internal */
  readonly transport: Transport;

  constructor(options: BotClientOptions) {
    this.transport = new Transport(options, options.apiKey ?? "");
  }

  private static of(transport: Transport): BotClient {
    const c = Object.create(BotClient.prototype) as BotClient;
    (c as { transport: Transport }).transport = transport;
    return c;
  }

  /** A client with the same settings authenticated with apiKey (the one register returned). */
  withApiKey(apiKey: string): BotClient {
    return BotClient.of(this.transport.withToken(apiKey));
  }

  private async get<R>(path: string, query?: Record<string, string | number | undefined>, opts?: CallOptions): Promise<R> {
    return (await this.transport.send<R>({ method: "GET", path, query }, opts)).data;
  }

  private async post<R>(path: string, body: unknown, opts?: CallOptions): Promise<R> {
    return (await this.transport.send<R>({ method: "POST", path, body }, opts)).data;
  }

  /**
   * Creates a bot (no API key needed). The answer's api_key, webhook_secret
   * and claim_token are shown only this once: store them first. Retries
   * reuse one Idempotency-Key, so a lost answer returns the same bot.
   */
  register(body: T.RegisterRequest, opts?: CallOptions): Promise<T.Registration> {
    return this.post("/api/v1/bots/register", body, opts);
  }

  /** The bot's state, rails and webhook health. */
  status(opts?: CallOptions): Promise<T.BotStatus> {
    return this.get("/api/v1/bot/status", undefined, opts);
  }

  /** Balance and wallet status. */
  walletCheck(opts?: CallOptions): Promise<T.WalletCheck> {
    return this.get("/api/v1/bot/wallet/check", undefined, opts);
  }

  /** One page of the ledger, newest first. */
  transactionsPage(page: PageOptions = {}, opts?: CallOptions): Promise<T.TransactionsPage> {
    return this.get("/api/v1/bot/wallet/transactions", { ...page }, opts);
  }

  /** Every transaction of the ledger, newest first. */
  allTransactions(opts: IterateOptions = {}): AsyncGenerator<T.Transaction, void, undefined> {
    return paginate((p) => this.transactionsPage(p, opts), (r) => r.transactions, (r) => r.next_cursor, opts.pageSize);
  }

  /** Asks the owner for money. */
  topupRequest(body: T.TopupRequest, opts?: CallOptions): Promise<T.TopupRequestResult> {
    return this.post("/api/v1/bot/wallet/topup-request", body, opts);
  }

  /** The bot's spending guardrails. */
  spending(opts?: CallOptions): Promise<T.SpendingRules> {
    return this.get("/api/v1/bot/wallet/spending", undefined, opts);
  }

  /** Points the bot's webhook at callbackUrl (health back to active; same secret). */
  async updateProfile(callbackUrl: string, opts?: CallOptions): Promise<T.WebhookState> {
    const body: T.RequestBody<"updateBotProfile"> = { callback_url: callbackUrl };
    return (await this.transport.send<T.WebhookState>({ method: "PATCH", path: "/api/v1/bot/profile", body }, opts)).data;
  }

  /** Buys with a card: approved at once (200) or held for the owner (202). */
  checkout(body: T.CheckoutRequest, opts?: CallOptions): Promise<T.Checkout> {
    return this.post("/api/v1/bot/merchant/checkout", body, opts);
  }

  /** The status of a purchase. */
  checkoutStatus(confirmationId: string, opts?: CallOptions): Promise<T.CheckoutStatus> {
    return this.get("/api/v1/bot/merchant/checkout/status", { confirmation_id: confirmationId }, opts);
  }

  /** Takes the oldest purchase task the owner queued. */
  nextTask(opts?: CallOptions): Promise<T.Task> {
    return this.post("/api/v1/bot/tasks/next", undefined, opts);
  }

  /** One page of staged, unacknowledged messages, oldest first. */
  messagesPage(page: PageOptions = {}, opts?: CallOptions): Promise<T.MessagesPage> {
    return this.get("/api/v1/bot/messages", { ...page }, opts);
  }

  /** Every staged, unacknowledged message, oldest first (acknowledging while paging is safe). */
  allMessages(opts: IterateOptions = {}): AsyncGenerator<T.PendingMessage, void, undefined> {
    return paginate((p) => this.messagesPage(p, opts), (r) => r.messages, (r) => r.next_cursor, opts.pageSize);
  }

  /** Acknowledges messages so they are not delivered again. */
  ackMessages(messageIds: number[], opts?: CallOptions): Promise<T.AckResult> {
    return this.post("/api/v1/bot/messages/ack", { message_ids: messageIds }, opts);
  }

  /** One page of the vendor catalogue matching query. */
  skillsPage(query: T.SkillsQuery = {}, page: PageOptions = {}, opts?: CallOptions): Promise<T.SkillsPage> {
    return this.get("/api/v1/bot/skills", { ...query, ...page } as Record<string, string | number | undefined>, opts);
  }

  /** Every vendor matching query. */
  allSkills(query: T.SkillsQuery = {}, opts: IterateOptions = {}): AsyncGenerator<T.Vendor, void, undefined> {
    return paginate((p) => this.skillsPage(query, p, opts), (r) => r.vendors, (r) => r.next_cursor, opts.pageSize);
  }

  /**
   * A vendor's skill file (Markdown), or null when ifNoneMatch (the ETag of
   * a cached copy) still matches; 404 vendor_not_found for an unknown slug.
   */
  async skillFile(vendor: string, ifNoneMatch?: string, opts?: CallOptions): Promise<SkillFile | null> {
    const path = `/api/v1/bot/skills/${pathValue(vendor)}`;
    const headers: Record<string, string> = ifNoneMatch ? { "If-None-Match": ifNoneMatch } : {};
    const answer = await this.transport.send<string>({ method: "GET", path, accept: "text", headers, acceptStatus: [304] }, opts);
    if (answer.status === 304) return null;
    const h = answer.headers;
    return { markdown: answer.data, etag: h.get("etag"), version: h.get("x-skill-version"), maturity: h.get("x-skill-maturity") };
  }

  /** Creates a checkout page. */
  createCheckoutPage(body: T.CheckoutPageRequest, opts?: CallOptions): Promise<T.CheckoutPage> {
    return this.post("/api/v1/bot/checkout-pages/create", body, opts);
  }

  /** One page of the bot's checkout pages, newest first. */
  checkoutPagesPage(page: PageOptions = {}, opts?: CallOptions): Promise<T.CheckoutPagesPage> {
    return this.get("/api/v1/bot/checkout-pages", { ...page }, opts);
  }

  /** Every checkout page, newest first. */
  allCheckoutPages(opts: IterateOptions = {}): AsyncGenerator<T.CheckoutPage, void, undefined> {
    return paginate((p) => this.checkoutPagesPage(p, opts), (r) => r.checkout_pages, (r) => r.next_cursor, opts.pageSize);
  }

  /** Creates a payment link (valid 24 hours). */
  createPaymentLink(body: T.PaymentLinkRequest, opts?: CallOptions): Promise<T.Ok<"createPaymentLink">> {
    return this.post("/api/v1/bot/payments/create-link", body, opts);
  }

  /** One page of payment links matching filter, newest first. */
  paymentLinksPage(filter: T.PaymentLinkFilter = {}, page: PageOptions = {}, opts?: CallOptions): Promise<T.PaymentLinksPage> {
    return this.get("/api/v1/bot/payments/links", { ...filter, ...page }, opts);
  }

  /** Every payment link matching filter, newest first. */
  allPaymentLinks(filter: T.PaymentLinkFilter = {}, opts: IterateOptions = {}): AsyncGenerator<T.PaymentLink, void, undefined> {
    return paginate((p) => this.paymentLinksPage(filter, p, opts), (r) => r.payment_links, (r) => r.next_cursor, opts.pageSize);
  }

  /** Creates a draft invoice on one of the bot's checkout pages. */
  createInvoice(body: T.InvoiceRequest, opts?: CallOptions): Promise<T.Ok<"createInvoice">> {
    return this.post("/api/v1/bot/invoices/create", body, opts);
  }

  /** Sends a draft invoice (its PDF is e-mailed to the recipient). */
  sendInvoice(invoiceId: string, opts?: CallOptions): Promise<T.Ok<"sendInvoice">> {
    return this.post(`/api/v1/bot/invoices/${pathValue(invoiceId)}/send`, undefined, opts);
  }

  /** One page of invoices matching filter, newest first. */
  invoicesPage(filter: T.InvoiceFilter = {}, page: PageOptions = {}, opts?: CallOptions): Promise<T.InvoicesPage> {
    return this.get("/api/v1/bot/invoices", { ...filter, ...page }, opts);
  }

  /** Every invoice matching filter, newest first. */
  allInvoices(filter: T.InvoiceFilter = {}, opts: IterateOptions = {}): AsyncGenerator<T.Invoice, void, undefined> {
    return paginate((p) => this.invoicesPage(filter, p, opts), (r) => r.invoices, (r) => r.next_cursor, opts.pageSize);
  }

  /** One page of sales matching filter, newest first. */
  salesPage(filter: T.SaleFilter = {}, page: PageOptions = {}, opts?: CallOptions): Promise<T.SalesPage> {
    return this.get("/api/v1/bot/sales", { ...filter, ...page }, opts);
  }

  /** Every sale matching filter, newest first. */
  allSales(filter: T.SaleFilter = {}, opts: IterateOptions = {}): AsyncGenerator<T.Sale, void, undefined> {
    return paginate((p) => this.salesPage(filter, p, opts), (r) => r.sales, (r) => r.next_cursor, opts.pageSize);
  }

  /** Pays a checkout page (or an invoice on it) through the sandbox provider, as a buyer would (no API key needed). */
  payCheckoutSandbox(checkoutPageId: string, body: T.RequestBody<"payCheckoutSandbox">, opts?: CallOptions): Promise<T.Ok<"payCheckoutSandbox">> {
    return this.post(`/api/v1/checkout/${pathValue(checkoutPageId)}/pay/sandbox`, body, opts);
  }

  /** Pays a pending payment link through the sandbox provider (no API key needed). */
  payLinkSandbox(paymentLinkId: string, body: T.RequestBody<"payLinkSandbox">, opts?: CallOptions): Promise<T.Ok<"payLinkSandbox">> {
    return this.post(`/api/v1/payment-links/${pathValue(paymentLinkId)}/pay/sandbox`, body, opts);
  }

  /** Gives a buyer money back for a sale. */
  refundSale(saleId: string, body: T.RefundRequest, opts?: CallOptions): Promise<T.Ok<"refundSale">> {
    return this.post(`/api/v1/bot/sales/${pathValue(saleId)}/refund`, body, opts);
  }

  /** Confirms that the encrypted card file (rail5) was saved. */
  confirmRail5Delivery(cardId?: string, opts?: CallOptions): Promise<T.Ok<"confirmRail5Delivery">> {
    return this.post("/api/v1/bot/rail5/confirm-delivery", cardId ? { card_id: cardId } : {}, opts);
  }

  /** Asks to spend with the bot's own (rail5) card. */
  rail5Checkout(body: T.RequestBody<"rail5Checkout">, opts?: CallOptions): Promise<T.Ok<"rail5Checkout">> {
    return this.post("/api/v1/bot/rail5/checkout", body, opts);
  }

  /** Gets the key of the card file, once, for an approved rail5 checkout. */
  rail5Key(checkoutId: string, opts?: CallOptions): Promise<T.Ok<"rail5Key">> {
    return this.post("/api/v1/bot/rail5/key", { checkout_id: checkoutId }, opts);
  }

  /** Reports the outcome of a rail5 checkout. */
  rail5Complete(body: T.RequestBody<"rail5Complete">, opts?: CallOptions): Promise<T.Ok<"rail5Complete">> {
    return this.post("/api/v1/bot/rail5/complete", body, opts);
  }

  /**
   * Asks the service to sign a USDC authorization with the bot's processor
   * wallet: signed at once, or held for the owner (status
   * "awaiting_approval"). Refusals are BotpayErrors (guardrail_blocked with
   * a reason, insufficient_token_balance, no_processor_wallet, …).
   */
  sign(body: SignBody, opts?: CallOptions): Promise<SignAnswer> {
    return this.post("/api/v1/processor-wallet/bot/sign", body, opts);
  }

  /**
   * Fetches an x402 resource and pays for it through the signing endpoint
   * when it answers 402 (x402 v2 and v1): see PayX402Options.
   */
  payX402(url: string, options: PayX402Options): Promise<PaidResponse> {
    return payX402(this, url, options);
  }

  /** Replaces the bot's API key; the old one keeps working for graceSeconds. */
  async rotateApiKey(graceSeconds?: number, opts?: CallOptions): Promise<T.KeyRotation> {
    return this.post("/api/v1/bot/api-key/rotate", graceSeconds === undefined ? {} : { grace_seconds: graceSeconds }, opts);
  }
}

/** A vendor's skill file. */
export interface SkillFile {
  markdown: string;
  /** Revalidates a cached copy: pass it back as ifNoneMatch. */
  etag: string | null;
  version: string | null;
  maturity: string | null;
}

/**
 * The signing request: the document's fields plus payment_required, the
 * vendor's 402 as it came (the PAYMENT-REQUIRED header value, or the v1 JSON
 * body), which makes the answer carry the headers a stock seller expects.
 */
export type SignBody = T.SignRequest & { payment_required?: string | Record<string, unknown> };

/** A signature made at once, with the headers of both x402 versions when asked for. */
export type SignedNow = T.Signed & {
  /** For PAYMENT-SIGNATURE (x402 v2), when payment_required was the v2 header. */
  payment_signature_header?: string;
  /** For X-PAYMENT to a stock x402 v1 seller, when payment_required was the v1 body. */
  x_payment_standard_header?: string;
};

/** The signing endpoint's answer. */
export type SignAnswer = SignedNow | T.SigningHeld;

/** Whether a signing answer is held for the owner's approval. */
export function isAwaitingApproval(answer: SignAnswer): answer is T.SigningHeld {
  return (answer as T.SigningHeld).status === "awaiting_approval";
}
