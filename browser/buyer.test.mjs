// Browser checks of the pages a buyer or a visitor sees: the landing page,
// the API reference, sign-up and log-in, checkout pages, payment links,
// invoices and receipts, each at desktop and phone widths with screenshots
// and an axe-core scan (checkPage). Run by internal/browsertest against a
// real `botpay serve` (sandbox mode).
import { BASE, launch, watch, shot, unique, api, expect, register, signup, claim, runScenarios } from './lib.mjs';
import { checkPage } from './check.mjs';

expect(BASE, 'BOTPAY_URL is not set');

// seller registers a bot that earns, claimed by a new owner in the
// dashboard, and returns a helper calling the API with its key.
async function seller(page, name) {
  const email = `${unique('seller')}@example.com`;
  await signup(page, email);
  const reg = await register({ bot_name: name, owner_email: email, description: 'Sells reports' });
  await claim(page, reg.claim_token);
  // The session cookie is an owner token, for the owner API.
  const session = (await page.context().cookies()).find((c) => c.name === 'botpay_session').value;
  await page.context().clearCookies();
  const call = async (method, path, body) => {
    const r = await api(method, path, body, reg.api_key);
    expect(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  return { call, reg, session };
}

const text = async (page, testID) => (await page.getByTestId(testID).textContent()).trim();

// payWithForm fills the buyer form and submits it with the keyboard only,
// then waits for the receipt.
async function payWithForm(page, email) {
  await page.getByLabel(/^Your e-mail/).fill(email);
  await page.getByLabel(/^Your e-mail/).press('Enter');
  await page.waitForURL(/\/receipt\/sale_/);
}

const scenarios = {
  async 'landing page, API reference, sign-up and log-in'(page) {
    const res = await page.goto(BASE + '/');
    expect(res.status() === 200 && res.headers()['content-type'].startsWith('text/html'), `GET /: ${res.status()}`);
    for (const [name, href] of [['Log in to the dashboard', '/login'], ['Create an owner account', '/signup'],
      ['API reference', '/docs/api'], [/OpenAPI document/, '/openapi.json']]) {
      expect(await page.getByRole('link', { name }).getAttribute('href') === href, `landing link ${name} is not ${href}`);
    }
    expect(await page.getByTestId('sandbox-mark').count() === 1, 'landing page lacks the sandbox mark');
    await checkPage(page, 'landing', { url: BASE + '/' });
    await page.getByRole('link', { name: 'API reference' }).click();
    expect(await page.locator('#registerBot, [id="registerBot"]').count() + await page.getByText('/api/v1/bots/register').count() > 0,
      'the API reference lacks bot registration');
    const unknown = await api('GET', '/api/v1/nothing-here');
    expect(unknown.status === 404 && unknown.body.error, `an unknown API path: ${unknown.status} ${JSON.stringify(unknown.body)}`);
    for (const path of ['/signup', '/login']) {
      await page.goto(BASE + path);
      expect(await page.getByRole('link', { name: /Forgot your password/ }).getAttribute('href') === '/forgot', `${path} has no Forgot password link`);
      await checkPage(page, path.slice(1), { url: BASE + path });
    }
  },

  async 'checkout page: seller, summary, pay without script, receipt'(page) {
    const { call, reg } = await seller(page, 'Report Seller');
    const cp = await call('POST', '/api/v1/bot/checkout-pages/create', {
      title: 'Market report', description: 'A weekly report on widget prices.', amount_usd: 1250,
    });
    const url = `${BASE}/pay/${cp.checkout_page_id}`;
    await page.goto(url);
    expect((await text(page, 'seller')).includes('Report Seller') && (await text(page, 'seller')).includes(reg.bot_id), 'the seller is not named');
    expect((await text(page, 'order-summary')).includes('$1,250.00'), 'the order summary lacks the price with separators');
    expect(await page.getByRole('radio', { name: 'USDC transfer' }).isChecked(), 'USDC transfer is not the default method');
    expect(await page.getByTestId('sandbox-mark').count() === 1, 'pay page lacks the sandbox mark');
    await checkPage(page, 'pay-page', { url });
    await payWithForm(page, 'ada@example.com');
    expect(await text(page, 'amount') === '$1,250.00', 'receipt amount');
    expect(await text(page, 'method') === 'USDC transfer', 'receipt method');
    expect((await text(page, 'sale-id')).startsWith('sale_'), 'receipt number');
    await checkPage(page, 'receipt');
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByText(/Keep this page/).isHidden(), 'print CSS does not hide the screen-only hint');
    await shot(page, 'receipt-print');
    await page.emulateMedia({ media: 'screen' });
    const again = await page.goto(page.url());
    expect(again.status() === 200, 'the receipt does not reload');
    const sales = await call('GET', `/api/v1/bot/sales?checkout_page_id=${cp.checkout_page_id}`);
    expect(sales.sales.length === 1, `reloading the receipt paid again: ${sales.sales.length} sales`);
  },

  async 'payment link and invoice share the default method; the invoice is the page'(page) {
    const { call } = await seller(page, 'Invoicer');
    const link = await call('POST', '/api/v1/bot/payments/create-link', { amount_usd: 9.99, description: 'Consulting hour' });
    const linkURL = `${BASE}/pay/${link.payment_link_id}`;
    await page.goto(linkURL);
    expect(await page.getByRole('radio', { name: 'USDC transfer' }).isChecked(), 'a payment link defaults to another method');
    await checkPage(page, 'pay-link', { url: linkURL });
    await payWithForm(page, 'bob@example.com');
    await checkPage(page, 'receipt-link');

    const cp = await call('POST', '/api/v1/bot/checkout-pages/create', { title: 'Studio time', amount_usd: 40 });
    const inv = await call('POST', '/api/v1/bot/invoices/create', {
      checkout_page_id: cp.checkout_page_id, recipient_name: 'Ada Buyer', recipient_email: 'ada@example.com',
      line_items: [{ description: 'Mixing, March', quantity: 4, unit_price_usd: 2500 },
        { description: 'Mastering', quantity: 1, unit_price_usd: 300 }],
    });
    const invURL = BASE + (inv.payment_url || `/pay/${cp.checkout_page_id}?ref=${encodeURIComponent(inv.reference_number)}`);
    await page.goto(invURL);
    expect((await page.title()).startsWith(`Invoice ${inv.reference_number}`), `invoice page title: ${await page.title()}`);
    expect((await page.locator('h1').textContent()).trim() === `Invoice ${inv.reference_number}`, 'the invoice page heading is not the invoice');
    expect(await text(page, 'total') === '$10,300.00', `invoice total: ${await text(page, 'total')}`);
    expect(await page.getByRole('radio', { name: 'USDC transfer' }).isChecked(), 'an invoice defaults to another method');
    await checkPage(page, 'pay-invoice', { url: invURL });
    await payWithForm(page, 'ada@example.com');
    expect(await text(page, 'invoice-ref') === inv.reference_number, 'the receipt does not name the invoice');
    await checkPage(page, 'receipt-invoice');
    await page.goto(invURL);
    await page.getByRole('link', { name: 'View the receipt' }).click();
    await page.waitForURL(/\/receipt\/sale_/);
  },

  async 'keyboard: focus order and visible focus; claim, reset and x402-only pages'(page) {
    const { call } = await seller(page, 'Keys');
    const cp = await call('POST', '/api/v1/bot/checkout-pages/create', { title: 'Tip jar', collect_buyer_name: true });
    await page.goto(`${BASE}/pay/${cp.checkout_page_id}`);
    const order = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      const f = await page.evaluate(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return { name: '' };
        const st = getComputedStyle(el);
        return { name: el.name || el.textContent.trim(), outline: st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) >= 2 };
      });
      if (f.name === '' || order.some((o) => o.name === f.name)) break;
      order.push(f);
    }
    const names = order.map((o) => o.name).join(' → ');
    expect(names === 'amount_usd → buyer_email → buyer_name → method → Pay', `focus order: ${names}`);
    const invisible = order.filter((o) => !o.outline).map((o) => o.name);
    expect(invisible.length === 0, `no visible focus on ${invisible.join(', ')}`);
    await checkPage(page, 'pay-choose-amount', { url: `${BASE}/pay/${cp.checkout_page_id}` });

    const x402 = await call('POST', '/api/v1/bot/checkout-pages/create', { title: 'Agent API access', amount_usd: 0.05, allowed_methods: ['x402'] });
    await page.goto(`${BASE}/pay/${x402.checkout_page_id}`);
    expect(await page.getByTestId('x402-only').count() === 1, 'an x402-only page does not say how to pay');
    await checkPage(page, 'pay-x402-only', { url: `${BASE}/pay/${x402.checkout_page_id}` });
    for (const path of ['/claim?token=clm_example', '/forgot']) {
      await checkPage(page, path.slice(1).replace(/\W.*$/, ''), { url: BASE + path });
    }
  },

  async 'an x402 payment has a receipt with its transaction hash'(page) {
    const { call, reg, session: sellerSession } = await seller(page, 'Data Vendor');
    const payTo = await api('POST', `/api/v1/owner/bots/${reg.bot_id}/processor-wallet`, undefined, sellerSession);
    expect(payTo.status === 201, `seller's processor wallet: ${payTo.status} ${JSON.stringify(payTo.body)}`);
    const cp = await call('POST', '/api/v1/bot/checkout-pages/create', { title: 'Price feed, one day', amount_usd: 2.5, allowed_methods: ['x402'] });
    const x402URL = `${BASE}/api/v1/checkout/${cp.checkout_page_id}/x402`;
    const challenge = await (await fetch(x402URL)).json();
    expect(Array.isArray(challenge.accepts), `x402 challenge: ${JSON.stringify(challenge)}`);
    const req = challenge.accepts[0];
    // The buyer is another bot paying from its processor wallet, funded by
    // its owner through the owner API (the session cookie is an owner token).
    const email = `${unique('buyer')}@example.com`;
    await signup(page, email);
    const buyer = await register({ bot_name: 'Buyer bot', owner_email: email });
    await claim(page, buyer.claim_token);
    const session = (await page.context().cookies()).find((c) => c.name === 'botpay_session').value;
    await page.context().clearCookies();
    const wallet = await api('POST', `/api/v1/owner/bots/${buyer.bot_id}/processor-wallet`, undefined, session);
    expect(wallet.status === 201, `processor wallet: ${wallet.status} ${JSON.stringify(wallet.body)}`);
    const funded = await api('POST', `/api/v1/owner/bots/${buyer.bot_id}/fund`, { amount_usd: 10, rail: 'processor_wallet' }, session);
    expect(funded.status === 200, `fund: ${funded.status} ${JSON.stringify(funded.body)}`);
    const signed = await api('POST', '/api/v1/processor-wallet/bot/sign', {
      resource_url: x402URL, amount_usdc: Number(req.maxAmountRequired), recipient_address: req.payTo,
    }, buyer.api_key);
    expect(signed.status === 200, `sign: ${signed.status} ${JSON.stringify(signed.body)}`);
    const paid = await fetch(x402URL, { method: 'POST', headers: { 'X-PAYMENT': signed.body.x_payment_header } });
    const settlement = await paid.json();
    expect(paid.status === 200 && settlement.sale_id && settlement.tx_hash, `x402 payment: ${paid.status} ${JSON.stringify(settlement)}`);
    await page.goto(`${BASE}/pay/${cp.checkout_page_id}/receipt/${settlement.sale_id}`);
    expect(await text(page, 'tx-hash') === settlement.tx_hash, 'the receipt does not show the transaction hash');
    expect(await text(page, 'method') === 'USDC from a wallet or an agent', 'the receipt does not name x402');
    await checkPage(page, 'receipt-x402');
  },

  async 'unknown page'(page) {
    page.removeAllListeners('console'); // the 404 itself is logged as a console error
    const res = await page.goto(`${BASE}/pay/cp_doesnotexist`);
    expect(res.status() === 404, `unknown pay page: HTTP ${res.status()}`);
    await checkPage(page, 'pay-not-found');
  },
};

const browser = await launch();
await runScenarios(browser, scenarios);
