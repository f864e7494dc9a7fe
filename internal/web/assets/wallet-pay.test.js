// Unit tests of the wallet script (node --test, no packages): run by
// internal/web's TestWalletScriptUnitTests.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const w = require('./wallet-pay.js');

const PAY_TO = '0x1111111111111111111111111111111111111111';
const ASSET = '0x2222222222222222222222222222222222222222';
const FROM = '0x3333333333333333333333333333333333333333';
const OFFER = { scheme: 'exact', network: 'eip155:31337', amount: '12500000', asset: ASSET, payTo: PAY_TO,
  maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' } };
const REQUIRED = { x402Version: 2, error: 'PAYMENT-SIGNATURE header is required',
  resource: { url: 'http://shop.test/api/v1/checkout/cp_1/x402', description: 'Café ☕', mimeType: 'application/json' },
  accepts: [OFFER], extensions: {} };
const SERVER_DATE = 'Fri, 27 Nov 2026 12:00:00 GMT';
const SERVER_NOW = Date.parse(SERVER_DATE) / 1000;

function answer(status, body, headers = {}) {
  const h = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { status, ok: status >= 200 && status < 300, headers: { get: (k) => h.get(k.toLowerCase()) || null },
    json: async () => body };
}

// fakeService answers the route as botpay does: 402 with PAYMENT-REQUIRED,
// then the payments it is given, in order.
function fakeService(...payAnswers) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    if (init.method === 'GET') {
      return answer(402, { x402Version: 1 }, { 'PAYMENT-REQUIRED': w.b64json(REQUIRED), Date: SERVER_DATE });
    }
    return payAnswers.shift() || answer(200, { status: 'confirmed', sale_id: 'sale_1', tx_hash: '0xab' });
  };
  return { calls, fetch };
}

// fakeWallet is an EIP-1193 provider; fail maps a method to the error it throws.
function fakeWallet({ chain = '0x7a69', fail = {}, switchTo } = {}) {
  const asked = [];
  let current = chain;
  return { asked, request: async ({ method, params }) => {
    asked.push({ method, params });
    if (fail[method]) throw fail[method];
    switch (method) {
      case 'eth_requestAccounts': return [FROM];
      case 'eth_chainId': return current;
      case 'wallet_switchEthereumChain': current = switchTo || params[0].chainId; return null;
      case 'eth_signTypedData_v4': return '0x' + 'ab'.repeat(65);
      default: throw new Error('unexpected ' + method);
    }
  } };
}

function context(service, extra = {}) {
  const steps = [];
  return { steps, ctx: { route: '/api/v1/checkout/cp_1/x402', amount: '', chainName: 'Base', fetch: service.fetch,
    step: (s) => steps.push(s), now: () => 0, sleep: async () => {}, random: (n) => new Uint8Array(n).fill(7),
    buyer: { buyer_email: 'bea@example.com', buyer_name: 'Bea' }, ...extra } };
}

test('the script stays under 15 KB', () => {
  assert.ok(readFileSync(join(__dirname, 'wallet-pay.js')).length < 15000);
});

test('base64 JSON round-trips UTF-8', () => {
  assert.deepEqual(w.unb64json(w.b64json(REQUIRED)), REQUIRED);
});

test('the offer is the first exact one on an EVM chain', () => {
  const other = { ...OFFER, scheme: 'upto' };
  const solana = { ...OFFER, network: 'solana:mainnet' };
  assert.equal(w.pickOffer({ accepts: [other, solana, OFFER] }), OFFER);
  assert.equal(w.pickOffer({ accepts: [other, solana] }), null);
  assert.equal(w.pickOffer({}), null);
  assert.equal(w.chainOf('eip155:8453'), 8453);
  assert.equal(w.chainOf('base'), 0);
});

test('amounts are dollars with at most two decimals', () => {
  const cases = [['12', '12.00'], ['12.5', '12.50'], ['$1,250.05', '1250.05'], [' 0.01 ', '0.01'],
    ['0', null], ['-3', null], ['1.234', null], ['abc', null], ['', null], ['1e3', null]];
  for (const [input, want] of cases) assert.equal(w.parseAmount(input), want, input);
  assert.equal(w.withAmount('/x402', '5.00'), '/x402?amount_usd=5.00');
  assert.equal(w.withAmount('/x402?ref=INV-1&t=abc', '5.00'), '/x402?ref=INV-1&t=abc&amount_usd=5.00');
  assert.equal(w.withAmount('/x402', ''), '/x402');
});

test('the authorization is exactly the offer, for its timeout, under a random nonce', () => {
  const a = w.authorization(OFFER, FROM, 1000000, (n) => new Uint8Array(n).fill(255));
  assert.deepEqual(a, { from: FROM, to: PAY_TO, value: '12500000', validAfter: '999400', validBefore: '1000300',
    nonce: '0x' + 'ff'.repeat(32) });
  const typed = w.typedData(OFFER, a);
  assert.equal(typed.primaryType, 'TransferWithAuthorization');
  assert.deepEqual(typed.domain, { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: ASSET });
  assert.deepEqual(typed.types.TransferWithAuthorization.map((f) => f.name),
    ['from', 'to', 'value', 'validAfter', 'validBefore', 'nonce']);
  assert.equal(typed.message, a);
});

test('a payment asks, connects, signs and posts the v2 payload with the offer as given', async () => {
  const service = fakeService();
  const wallet = fakeWallet();
  const { ctx, steps } = context(service, { amount: '12.50' });
  const sale = await w.pay(ctx, wallet);
  assert.equal(sale.sale_id, 'sale_1');
  assert.deepEqual(steps, ['connect', 'sign', 'settle', 'done']);
  assert.deepEqual(wallet.asked.map((a) => a.method), ['eth_requestAccounts', 'eth_chainId', 'eth_signTypedData_v4']);
  const [ask, post] = service.calls;
  assert.equal(ask.url, '/api/v1/checkout/cp_1/x402?amount_usd=12.50');
  assert.equal(post.url, ask.url);
  assert.equal(post.init.method, 'POST');
  assert.deepEqual(JSON.parse(post.init.body), { buyer_email: 'bea@example.com', buyer_name: 'Bea' });
  const payload = w.unb64json(post.init.headers['PAYMENT-SIGNATURE']);
  assert.equal(payload.x402Version, 2);
  assert.deepEqual(payload.accepted, OFFER);
  assert.deepEqual(payload.resource, REQUIRED.resource);
  assert.equal(payload.payload.signature, '0x' + 'ab'.repeat(65));
  // The window starts at the service's clock (its Date header), not the device's.
  assert.equal(payload.payload.authorization.validBefore, String(SERVER_NOW + 300));
  const [from, typed] = wallet.asked[2].params;
  assert.equal(from, FROM);
  assert.deepEqual(JSON.parse(typed).message, payload.payload.authorization);
});

test('a wallet on another chain is switched first', async () => {
  const wallet = fakeWallet({ chain: '0x1' });
  const { ctx, steps } = context(fakeService());
  await w.pay(ctx, wallet);
  assert.deepEqual(steps, ['connect', 'switch', 'sign', 'settle', 'done']);
  assert.deepEqual(wallet.asked[2], { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] });
});

test('refusals end with a clear message and nothing posted', async () => {
  const refused = { code: 4001, message: 'User rejected the request.' };
  const cases = [
    ['the wallet refuses to connect', { fail: { eth_requestAccounts: refused } }, /did not connect a wallet/],
    ['the wallet refuses to sign', { fail: { eth_signTypedData_v4: refused } }, /declined to sign/],
    ['the wallet refuses to switch', { chain: '0x1', fail: { wallet_switchEthereumChain: refused } }, /did not switch to Base/],
    ['the wallet lacks the chain', { chain: '0x1', fail: { wallet_switchEthereumChain: { code: 4902 } } }, /does not know the chain Base/],
    ['the wallet stays on its chain', { chain: '0x1', switchTo: '0x1' }, /still on another chain/],
  ];
  for (const [name, opts, want] of cases) {
    const service = fakeService();
    const { ctx } = context(service);
    await assert.rejects(w.pay(ctx, fakeWallet(opts)), (err) => err instanceof w.Refusal && want.test(err.message), name);
    assert.equal(service.calls.filter((c) => c.init.method === 'POST').length, 0, name);
  }
});

test('a refused payment says why in plain words', async () => {
  const refusal = (reason) => answer(402, { error: reason }, { 'PAYMENT-REQUIRED': w.b64json({ ...REQUIRED, error: reason }) });
  const cases = [['insufficient_funds', /does not hold enough USDC on Base/], ['settlement_failed', /failed on the chain/],
    ['expired', /clock/], ['something_new', /refused \(something_new\)/]];
  for (const [reason, want] of cases) {
    const { ctx } = context(fakeService(refusal(reason)));
    await assert.rejects(w.pay(ctx, fakeWallet()), (err) => err instanceof w.Refusal && want.test(err.message), reason);
  }
  const { ctx } = context(fakeService(answer(400, { error: 'validation_error', details: { buyer_email: 'must be a valid e-mail address' } })));
  await assert.rejects(w.pay(ctx, fakeWallet()), /buyer email must be a valid e-mail address/);
});

test('a payment still confirming is asked again with the same signature', async () => {
  const service = fakeService(answer(409, { error: 'payment_in_progress' }), answer(409, { error: 'payment_in_progress' }));
  const { ctx } = context(service);
  const sale = await w.pay(ctx, fakeWallet());
  const posts = service.calls.filter((c) => c.init.method === 'POST');
  assert.equal(sale.sale_id, 'sale_1');
  assert.equal(posts.length, 3);
  assert.equal(new Set(posts.map((p) => p.init.headers['PAYMENT-SIGNATURE'])).size, 1);
});

test('a page that cannot be paid says so before the wallet is asked', async () => {
  const wallet = fakeWallet();
  const { ctx } = context({ fetch: async () => answer(410, { error: 'checkout_page_expired', message: 'this checkout page has expired' }) });
  await assert.rejects(w.pay(ctx, wallet), /expired/);
  assert.equal(wallet.asked.length, 0);
});

test('wallets announced by EIP-6963 are collected once each', () => {
  const win = new EventTarget();
  win.Event = Event;
  const seen = [];
  const provider = { request: async () => null };
  win.addEventListener('eip6963:requestProvider', () => {
    for (const uuid of ['a', 'b', 'a']) {
      const e = new Event('eip6963:announceProvider');
      e.detail = { info: { uuid, name: 'Wallet ' + uuid }, provider };
      win.dispatchEvent(e);
    }
  });
  const list = w.discover(win, (l) => seen.push(l.length));
  assert.deepEqual(list.map((x) => x.info.name), ['Wallet a', 'Wallet b']);
  assert.deepEqual(seen, [1, 2]);
});
