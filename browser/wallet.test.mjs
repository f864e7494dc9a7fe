// Browser checks of "Pay with a wallet" on a live service on anvil: an
// EIP-1193 wallet is injected into each page (announced by EIP-6963, or
// as window.ethereum) and backed on the node side by a viem account of a
// funded anvil key. It pays a checkout page, an invoice, a payment link
// and a pay-what-you-want page at desktop and phone widths, and is refused with
// a clear message when it will not sign, will not switch chain, or holds
// too little. Run by internal/browsertest (TestWalletPaysBuyerPagesOnChainInChromium),
// which checks the chain and the sales afterwards from the last line.
import { chromium } from 'playwright-core';
import { privateKeyToAccount } from 'viem/accounts';
import { launch, shot, expect } from './lib.mjs';
import { WIDTHS, axeViolations, horizontalOverflow } from './check.mjs';

const PLAN = JSON.parse(process.env.WALLET_PLAN || '{}');
expect(PLAN.base, 'WALLET_PLAN is not set');
const CHAIN = '0x' + PLAN.chainId.toString(16);
const UINTS = new Set(['value', 'validAfter', 'validBefore']);

// injectWallet gives the page a wallet: the page's provider forwards every
// request to signer on the node side. announce false leaves only
// window.ethereum (the fallback of wallets without EIP-6963).
async function injectWallet(page, signer, { announce = true } = {}) {
  await page.exposeFunction('__testWallet', (method, params) => signer(method, params));
  await page.addInitScript((announceIt) => {
    const provider = {
      async request({ method, params }) {
        const r = await window.__testWallet(method, params === undefined ? null : params);
        if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code });
        return r.result;
      },
      on() {}, removeListener() {},
    };
    if (!announceIt) { window.ethereum = provider; return; }
    const info = Object.freeze({ uuid: '5b1c6f0e-7e0a-4c4f-9d1e-000000000001', name: 'Test Wallet', rdns: 'test.botpay.wallet',
      icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg"/%3E' });
    const announceOnce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
    window.addEventListener('eip6963:requestProvider', announceOnce);
  }, announce);
}

// signerFor answers EIP-1193 requests as a wallet holding key would; a
// behaviour may refuse to sign (4001) or to leave its chain.
function signerFor(key, { refuseSign = false, stuckOn = null } = {}) {
  const account = privateKeyToAccount(key);
  let chain = stuckOn || CHAIN;
  const refused = { error: { code: 4001, message: 'User rejected the request.' } };
  return async (method, params) => {
    switch (method) {
      case 'eth_requestAccounts': case 'eth_accounts': return { result: [account.address] };
      case 'eth_chainId': return { result: chain };
      case 'wallet_switchEthereumChain':
        if (stuckOn) return refused;
        chain = params[0].chainId;
        return { result: null };
      case 'eth_signTypedData_v4': {
        if (refuseSign) return refused;
        const [from, json] = params;
        expect(from.toLowerCase() === account.address.toLowerCase(), `asked to sign as ${from}`);
        const typed = JSON.parse(json);
        const types = { ...typed.types };
        delete types.EIP712Domain;
        const message = Object.fromEntries(Object.entries(typed.message).map(([k, v]) => [k, UINTS.has(k) ? BigInt(v) : v]));
        return { result: await account.signTypedData({ domain: typed.domain, types, primaryType: typed.primaryType, message }) };
      }
      default: return { error: { code: 4200, message: `unsupported method ${method}` } };
    }
  };
}

async function checkA11y(page, name, width) {
  const problems = await axeViolations(page);
  if (width === 'phone') {
    const over = await horizontalOverflow(page);
    if (over > 0) problems.push(`scrolls sideways by ${over}px`);
  }
  expect(problems.length === 0, `${name} at ${width}:\n  ${problems.join('\n  ')}`);
}

// payPage opens path with a wallet, fills what the page asks and pays;
// it returns the page once the wallet section shows its outcome.
async function openAndPay(page, path, { width, name, amount, buyerName, email = 'bea@example.com' }) {
  await page.goto(PLAN.base + path);
  const section = page.getByTestId('wallet-pay');
  await section.getByRole('button', { name: /^Pay with/ }).waitFor();
  if (amount) await section.getByLabel('Amount (USD)').fill(amount);
  if (buyerName) await section.getByLabel('Your name').fill(buyerName);
  await section.getByLabel(/^E-mail for the receipt/).fill(email);
  await shot(page, `${name}-${width}-1-ready`);
  await checkA11y(page, `${name} (ready)`, width);
  await section.getByRole('button', { name: /^Pay with/ }).click();
}

async function paid(page, name, width, micro) {
  await page.waitForURL(/\/receipt\/sale_/, { timeout: 60000 });
  const hash = (await page.getByTestId('tx-hash').textContent()).trim();
  expect(/^0x[0-9a-f]{64}$/.test(hash), `${name}: receipt shows ${hash}, not a whole transaction hash`);
  const link = await page.getByTestId('tx-link').getAttribute('href');
  expect(link === `https://explorer.example/tx/${hash}`, `${name}: explorer link ${link}`);
  await shot(page, `${name}-${width}-3-receipt`);
  await checkA11y(page, `${name} (receipt)`, width);
  const saleId = page.url().replace(/^.*\/receipt\//, '');
  return { Case: name, Width: width, SaleID: saleId, TxHash: hash, Micro: micro };
}

async function refused(page, name, width, pattern, step) {
  const status = page.getByTestId('wallet-status');
  await status.filter({ hasText: pattern }).waitFor({ timeout: 30000 });
  const failed = await page.locator(`[data-step="${step}"]`).getAttribute('data-state');
  expect(failed === 'failed', `${name}: step ${step} is ${failed}, not marked as the one that failed`);
  expect(!/\/receipt\//.test(page.url()), `${name}: reached a receipt`);
  expect(await status.getAttribute('class') === 'error', `${name}: the message is not shown as an error`);
  expect(await page.getByRole('button', { name: /^Pay with/ }).isEnabled(), `${name}: cannot try again`);
  await shot(page, `${name}-${width}-2-refused`);
  await checkA11y(page, `${name} (refused)`, width);
}

const payments = [];

// watch fails a scenario on any console error, page error or dialog, but
// for the 402 of the page's x402 route: that answer is the route asking
// for payment (x402), which Chromium logs as a failed load.
function watch(page, problems) {
  page.on('console', (msg) => {
    const asked = /status of 402/.test(msg.text()) && /\/x402(\?|$)/.test(msg.location().url || '');
    if (msg.type() === 'error' && !asked) problems.push(`console error on ${page.url()}: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => problems.push(`page error on ${page.url()}: ${err.message}`));
  page.on('dialog', async (d) => {
    problems.push(`dialog (${d.type()}) on ${page.url()}: ${d.message()}`);
    await d.dismiss();
  });
}

function scenarios(width, invoice, link) {
  return {
    async 'a checkout page is paid'(page) {
      await injectWallet(page, signerFor(PLAN.richKey));
      await openAndPay(page, PLAN.checkout, { width, name: 'checkout' });
      payments.push(await paid(page, 'checkout', width, 12_500_000));
    },
    async 'an invoice is paid through window.ethereum'(page) {
      await injectWallet(page, signerFor(PLAN.richKey), { announce: false });
      await openAndPay(page, invoice, { width, name: 'invoice', email: '' });
      payments.push(await paid(page, 'invoice', width, 21_750_000));
    },
    async 'a payment link is paid'(page) {
      await injectWallet(page, signerFor(PLAN.richKey));
      await openAndPay(page, link, { width, name: 'link' });
      payments.push(await paid(page, 'link', width, 3_750_000));
    },
    async 'a pay-what-you-want page takes the amount and the name first'(page) {
      await injectWallet(page, signerFor(PLAN.richKey));
      await openAndPay(page, PLAN.choose, { width, name: 'choose', amount: '0.05', buyerName: 'Bea Buyer' });
      payments.push(await paid(page, 'choose', width, 50_000));
    },
    async 'a wallet that will not sign ends with a message'(page) {
      await injectWallet(page, signerFor(PLAN.richKey, { refuseSign: true }));
      await openAndPay(page, PLAN.checkout, { width, name: 'refuse-sign' });
      await refused(page, 'refuse-sign', width, /declined to sign/, 'sign');
    },
    async 'a wallet on another chain that will not switch ends with a message'(page) {
      await injectWallet(page, signerFor(PLAN.richKey, { stuckOn: '0x1' }));
      await openAndPay(page, PLAN.checkout, { width, name: 'wrong-chain' });
      await refused(page, 'wrong-chain', width, /did not switch to/, 'switch');
    },
    async 'an underfunded wallet ends with a message'(page) {
      await injectWallet(page, signerFor(PLAN.poorKey));
      await openAndPay(page, PLAN.checkout, { width, name: 'underfunded' });
      await refused(page, 'underfunded', width, /does not hold enough USDC/, 'settle');
    },
    async 'without a wallet the page says what is needed'(page) {
      await page.goto(PLAN.base + PLAN.checkout);
      await page.getByText('No browser wallet was found').waitFor();
      expect(await page.getByRole('button', { name: /^Pay with/ }).count() === 0, 'a pay button without a wallet');
      await shot(page, `no-wallet-${width}`);
      await checkA11y(page, 'no wallet', width);
    },
  };
}

const browser = await launch();
const failures = [];
for (const [i, width] of ['desktop', 'phone'].entries()) {
  for (const [name, run] of Object.entries(scenarios(width, PLAN.invoices[i], PLAN.links[i]))) {
    const page = await browser.newPage();
    await page.setViewportSize(WIDTHS[width]);
    const problems = [];
    watch(page, problems);
    try {
      await run(page);
    } catch (err) {
      problems.push(err.stack || String(err));
      await shot(page, `failed-${width}-${name.replace(/\W+/g, '-')}`).catch(() => {});
    }
    await page.close();
    if (problems.length) {
      failures.push(`${width}: ${name}`);
      console.log(`FAIL ${width}: ${name}\n  ${problems.join('\n  ')}`);
    } else {
      console.log(`ok   ${width}: ${name}`);
    }
  }
}
await browser.close();
// With JavaScript off, the section says what paying with a wallet needs.
const plain = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const width of ['desktop', 'phone']) {
  const context = await plain.newContext({ javaScriptEnabled: false, viewport: WIDTHS[width] });
  const page = await context.newPage();
  await page.goto(PLAN.base + PLAN.checkout);
  if (!(await page.getByTestId('wallet-noscript').isVisible())) failures.push(`${width}: no visible explanation without JavaScript`);
  await shot(page, `no-javascript-${width}`);
  await context.close();
}
await plain.close();
if (failures.length) process.exit(1);
console.log('WALLET-PAYMENTS ' + JSON.stringify(payments));
