// The owner API: the humans who claim, fund and limit bots, authenticated
// with an owner token (bpo_live_…) from signup or login.
import { nextCursorOfLink, paginate, type IterateOptions, type PageOptions } from "./pagination.js";
import { Transport, pathValue, type CallOptions, type ClientOptions } from "./transport.js";
import type * as T from "./types.js";

/** Options of an OwnerClient. */
export interface OwnerClientOptions extends ClientOptions {
  /** The owner token; may be empty for a client that only signs up or logs in. */
  token?: string;
}

/** One page of the owner's bots (the answer is a bare array; the next page is named in its Link header). */
export interface OwnedBotsPage {
  bots: T.OwnedBot[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Calls the owner API. Every method throws a BotpayError on a non-2xx answer. */
export class OwnerClient {
  /** @internal */
  readonly transport: Transport;

  constructor(options: OwnerClientOptions) {
    this.transport = new Transport(options, options.token ?? "");
  }

  /** A client with the same settings authenticated with token (the one signup or login returned). */
  withToken(token: string): OwnerClient {
    const c = Object.create(OwnerClient.prototype) as OwnerClient;
    (c as { transport: Transport }).transport = this.transport.withToken(token);
    return c;
  }

  private async call<R>(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", path: string, body?: unknown,
    opts?: CallOptions, query?: Record<string, string | number | undefined>): Promise<R> {
    return (await this.transport.send<R>({ method, path, body, query }, opts)).data;
  }

  /** Creates an owner account (password of at least 12 characters); 409 email_taken if it exists. */
  signup(email: string, password: string, opts?: CallOptions): Promise<T.OwnerSession> {
    return this.call("POST", "/api/v1/owner/signup", { email, password }, opts);
  }

  /** Issues a new owner token; 401 invalid_credentials on a wrong e-mail or password. */
  login(email: string, password: string, opts?: CallOptions): Promise<T.OwnerLogin> {
    return this.call("POST", "/api/v1/owner/login", { email, password }, opts);
  }

  /** Revokes this client's token. */
  async logout(opts?: CallOptions): Promise<void> {
    await this.call("POST", "/api/v1/owner/logout", undefined, opts);
  }

  /** A 6-digit code that registers the next bot already claimed (one hour, single use). */
  createPairingCode(opts?: CallOptions): Promise<T.PairingCode> {
    return this.call("POST", "/api/v1/owner/pairing-codes", undefined, opts);
  }

  /** Claims the bot holding claimToken and activates its wallet. */
  claim(claimToken: string, opts?: CallOptions): Promise<T.ClaimResult> {
    return this.call("POST", "/api/v1/owner/bots/claim", { claim_token: claimToken }, opts);
  }

  /** One page of the owner's bots, oldest first. */
  async botsPage(page: PageOptions = {}, opts?: CallOptions): Promise<OwnedBotsPage> {
    const answer = await this.transport.send<T.OwnedBot[]>({ method: "GET", path: "/api/v1/bots/mine", query: { ...page } }, opts);
    const next = nextCursorOfLink(answer.headers.get("link"));
    return { bots: answer.data, has_more: next !== null, next_cursor: next };
  }

  /** Every bot of the owner, oldest first. */
  allBots(opts: IterateOptions = {}): AsyncGenerator<T.OwnedBot, void, undefined> {
    return paginate((p) => this.botsPage(p, opts), (r) => r.bots, (r) => r.next_cursor, opts.pageSize);
  }

  /** Adds money to a bot's card wallet (or processor wallet with rail "processor_wallet"). */
  fund(botId: string, body: T.FundRequest, opts?: CallOptions): Promise<T.Funding> {
    return this.call("POST", botPath(botId, "/fund"), body, opts);
  }

  /** Freezes (true) or unfreezes (false) a bot's wallet. */
  freeze(botId: string, frozen: boolean, opts?: CallOptions): Promise<T.FreezeResult> {
    return this.call("POST", botPath(botId, "/freeze"), { frozen }, opts);
  }

  /** A bot's guardrails. */
  guardrails(botId: string, opts?: CallOptions): Promise<T.Guardrails> {
    return this.call("GET", botPath(botId, "/guardrails"), undefined, opts);
  }

  /** Changes a bot's guardrails (fields left out keep their value). */
  setGuardrails(botId: string, body: T.GuardrailsUpdate, opts?: CallOptions): Promise<T.Ok<"putGuardrails">> {
    return this.call("PUT", botPath(botId, "/guardrails"), body, opts);
  }

  /** The owner's limits across all bots. */
  masterGuardrails(opts?: CallOptions): Promise<T.MasterGuardrails> {
    return this.call("GET", "/api/v1/owner/master-guardrails", undefined, opts);
  }

  /** Changes the master guardrails (left out keeps, null removes a limit). */
  setMasterGuardrails(body: T.MasterGuardrailsUpdate, opts?: CallOptions): Promise<T.Ok<"putMasterGuardrails">> {
    return this.call("PUT", "/api/v1/owner/master-guardrails", body, opts);
  }

  /** Points a bot's webhook at callbackUrl and resets its health. */
  setCallbackUrl(botId: string, callbackUrl: string, opts?: CallOptions): Promise<T.Ok<"putCallbackURL">> {
    return this.call("PUT", botPath(botId, "/callback-url"), { callback_url: callbackUrl }, opts);
  }

  /** One page of a bot's cards (never their digits), oldest first. */
  cardsPage(botId: string, page: PageOptions = {}, opts?: CallOptions): Promise<T.CardsPage> {
    return this.call("GET", botPath(botId, "/cards"), undefined, opts, { ...page });
  }

  /** Every card of a bot. */
  allCards(botId: string, opts: IterateOptions = {}): AsyncGenerator<T.Card, void, undefined> {
    return paginate((p) => this.cardsPage(botId, p, opts), (r) => r.cards, (r) => r.next_cursor, opts.pageSize);
  }

  /** Adds a card with payment profiles (one real, the others decoys). */
  createCard(botId: string, body: T.NewCard, opts?: CallOptions): Promise<T.Ok<"createCard">> {
    return this.call("POST", botPath(botId, "/cards"), body, opts);
  }

  /** Freezes, unfreezes or removes a card. */
  updateCard(botId: string, cardId: string, body: T.CardUpdate, opts?: CallOptions): Promise<T.Ok<"patchCard">> {
    return this.call("PATCH", botPath(botId, `/cards/${pathValue(cardId)}`), body, opts);
  }

  /** Gives the bot its own encrypted card file (rail5). */
  createRail5Card(botId: string, body: T.NewRail5Card, opts?: CallOptions): Promise<T.Ok<"createRail5Card">> {
    return this.call("POST", botPath(botId, "/rail5-cards"), body, opts);
  }

  /** Queues a purchase task for the bot. */
  createTask(botId: string, body: T.NewTask, opts?: CallOptions): Promise<T.Ok<"createTask">> {
    return this.call("POST", botPath(botId, "/tasks"), body, opts);
  }

  /** A bot's procurement controls. */
  procurement(botId: string, opts?: CallOptions): Promise<T.Procurement> {
    return this.call("GET", botPath(botId, "/procurement"), undefined, opts);
  }

  /** Replaces a bot's procurement controls. */
  setProcurement(botId: string, body: T.RequestBody<"putProcurement">, opts?: CallOptions): Promise<T.Ok<"putProcurement">> {
    return this.call("PUT", botPath(botId, "/procurement"), body, opts);
  }

  /** Gives the bot a processor wallet (USDC) and returns it (the one it has, if any). */
  createProcessorWallet(botId: string, opts?: CallOptions): Promise<T.Ok<"createProcessorWallet">> {
    return this.call("POST", botPath(botId, "/processor-wallet"), undefined, opts);
  }

  /** One page of held purchases and signing requests waiting for a decision. */
  approvalsPage(page: PageOptions = {}, opts?: CallOptions): Promise<T.ApprovalsPage> {
    return this.call("GET", "/api/v1/owner/approvals", undefined, opts, { ...page });
  }

  /** Everything waiting for the owner's decision. */
  allApprovals(opts: IterateOptions = {}): AsyncGenerator<T.Approval, void, undefined> {
    return paginate((p) => this.approvalsPage(p, opts), (r) => r.approvals, (r) => r.next_cursor, opts.pageSize);
  }

  /** Approves a held purchase. */
  approvePurchase(confirmationId: string, opts?: CallOptions): Promise<T.Ok<"approvePurchase">> {
    return this.call("POST", `/api/v1/owner/purchases/${pathValue(confirmationId)}/approve`, undefined, opts);
  }

  /** Denies a held purchase. */
  denyPurchase(confirmationId: string, opts?: CallOptions): Promise<T.Ok<"denyPurchase">> {
    return this.call("POST", `/api/v1/owner/purchases/${pathValue(confirmationId)}/deny`, undefined, opts);
  }

  /** Records money the merchant gave back for an approved purchase. */
  refundPurchase(confirmationId: string, body: T.RequestBody<"refundPurchase">, opts?: CallOptions): Promise<T.Ok<"refundPurchase">> {
    return this.call("POST", `/api/v1/owner/purchases/${pathValue(confirmationId)}/refund`, body, opts);
  }

  /** One page of held x402 signing requests. */
  signingRequestsPage(page: PageOptions = {}, opts?: CallOptions): Promise<T.SigningRequestsPage> {
    return this.call("GET", "/api/v1/owner/signing-requests", undefined, opts, { ...page });
  }

  /** Every held x402 signing request. */
  allSigningRequests(opts: IterateOptions = {}): AsyncGenerator<T.SigningApproval, void, undefined> {
    return paginate((p) => this.signingRequestsPage(p, opts), (r) => r.approvals, (r) => r.next_cursor, opts.pageSize);
  }

  /** Approves a held signing request: the service signs, and purchase.approved carries the header. */
  approveSigningRequest(approvalId: number, opts?: CallOptions): Promise<T.Ok<"approveSigningRequest">> {
    return this.call("POST", `/api/v1/owner/signing-requests/${pathValue(approvalId)}/approve`, undefined, opts);
  }

  /** Denies a held signing request. */
  denySigningRequest(approvalId: number, opts?: CallOptions): Promise<T.Ok<"denySigningRequest">> {
    return this.call("POST", `/api/v1/owner/signing-requests/${pathValue(approvalId)}/deny`, undefined, opts);
  }

  /** Cancels an unpaid invoice of one of the owner's bots. */
  cancelInvoice(invoiceId: string, opts?: CallOptions): Promise<T.Ok<"cancelInvoice">> {
    return this.call("POST", `/api/v1/owner/invoices/${pathValue(invoiceId)}/cancel`, undefined, opts);
  }

  /** Gives an owned bot a new API key (grace 0, the default, revokes the old one at once). */
  rotateBotApiKey(botId: string, graceSeconds?: number, opts?: CallOptions): Promise<T.Ok<"rotateBotAPIKey">> {
    return this.call("POST", botPath(botId, "/api-key/rotate"), graceSeconds === undefined ? {} : { grace_seconds: graceSeconds }, opts);
  }

  /** E-mails a single-use password reset link (the same answer whether or not the account exists). */
  async requestPasswordReset(email: string, opts?: CallOptions): Promise<void> {
    await this.call("POST", "/api/v1/owner/password-reset", { email }, opts);
  }

  /** Sets a new password with a reset link's token; ends every session and token. */
  async confirmPasswordReset(token: string, password: string, opts?: CallOptions): Promise<void> {
    await this.call("POST", "/api/v1/owner/password-reset/confirm", { token, password }, opts);
  }

  /** E-mails a fresh e-mail verification link. */
  async resendEmailVerification(opts?: CallOptions): Promise<void> {
    await this.call("POST", "/api/v1/owner/email-verification", undefined, opts);
  }

  /** The owner's live dashboard sessions and API tokens. */
  sessions(opts?: CallOptions): Promise<T.OwnerSessions> {
    return this.call("GET", "/api/v1/owner/sessions", undefined, opts);
  }

  /** Ends one session or API token. */
  async revokeSession(id: string, opts?: CallOptions): Promise<void> {
    await this.call("DELETE", `/api/v1/owner/sessions/${pathValue(id)}`, undefined, opts);
  }
}

/** The owner route of one bot; the id is escaped so an odd id cannot reach another route. */
function botPath(botId: string, rest: string): string {
  return `/api/v1/owner/bots/${pathValue(botId)}${rest}`;
}
