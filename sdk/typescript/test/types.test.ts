// The types drawn from the OpenAPI document resolve to the document's
// shapes: an alias that silently became `never` (a renamed operation or
// status) would let any property access compile, so each is checked here
// at compile time, and the test runner just counts the file.
import { it } from "node:test";
import type * as T from "../src/index.js";

type IsNever<X> = [X] extends [never] ? true : false;
type NotNever<X> = IsNever<X> extends true ? { error: "resolves to never" } : true;
const resolved = <X extends true>(_: X) => undefined;

resolved<NotNever<T.Registration>>(true);
resolved<NotNever<T.BotStatus>>(true);
resolved<NotNever<T.WalletCheck>>(true);
resolved<NotNever<T.Transaction>>(true);
resolved<NotNever<T.TopupRequestResult>>(true);
resolved<NotNever<T.SpendingRules>>(true);
resolved<NotNever<T.WebhookState>>(true);
resolved<NotNever<T.Checkout>>(true);
resolved<NotNever<T.CheckoutStatus>>(true);
resolved<NotNever<T.Task>>(true);
resolved<NotNever<T.PendingMessage>>(true);
resolved<NotNever<T.AckResult>>(true);
resolved<NotNever<T.Vendor>>(true);
resolved<NotNever<T.CheckoutPage>>(true);
resolved<NotNever<T.PaymentLink>>(true);
resolved<NotNever<T.Invoice>>(true);
resolved<NotNever<T.Sale>>(true);
resolved<NotNever<T.Signed>>(true);
resolved<NotNever<T.SigningHeld>>(true);
resolved<NotNever<T.KeyRotation>>(true);
resolved<NotNever<T.OwnerSession>>(true);
resolved<NotNever<T.OwnerLogin>>(true);
resolved<NotNever<T.PairingCode>>(true);
resolved<NotNever<T.ClaimResult>>(true);
resolved<NotNever<T.OwnedBot>>(true);
resolved<NotNever<T.Funding>>(true);
resolved<NotNever<T.FreezeResult>>(true);
resolved<NotNever<T.Guardrails>>(true);
resolved<NotNever<T.MasterGuardrails>>(true);
resolved<NotNever<T.Card>>(true);
resolved<NotNever<T.Procurement>>(true);
resolved<NotNever<T.Approval>>(true);
resolved<NotNever<T.SigningApproval>>(true);
resolved<NotNever<T.OwnerSessions>>(true);
resolved<NotNever<T.Ok<"createPaymentLink">>>(true);
resolved<NotNever<T.Ok<"createInvoice">>>(true);
resolved<NotNever<T.Ok<"sendInvoice">>>(true);
resolved<NotNever<T.Ok<"cancelInvoice">>>(true);
resolved<NotNever<T.Ok<"payCheckoutSandbox">>>(true);
resolved<NotNever<T.Ok<"payLinkSandbox">>>(true);
resolved<NotNever<T.Ok<"refundSale">>>(true);
resolved<NotNever<T.Ok<"putGuardrails">>>(true);
resolved<NotNever<T.Ok<"putMasterGuardrails">>>(true);
resolved<NotNever<T.Ok<"createProcessorWallet">>>(true);
resolved<NotNever<T.Ok<"approveSigningRequest">>>(true);
resolved<NotNever<T.Ok<"rotateBotAPIKey">>>(true);
resolved<NotNever<T.RequestBody<"registerBot">>>(true);
resolved<NotNever<T.RequestBody<"fundBot">>>(true);
resolved<NotNever<T.RequestBody<"signX402Payment">>>(true);

it("every type drawn from the OpenAPI document resolves (checked by tsc)", () => {});
