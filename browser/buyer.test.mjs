// Browser checks of the pages a buyer or a visitor sees: the landing page,
// sign-up and log-in, checkout pages, payment links, invoices and receipts,
// each at desktop and phone widths with screenshots and an axe-core scan
// (checkPage). Run by internal/browsertest against a real `botpay serve`.
import { BASE, launch, watch, shot, unique, api, expect, register, signup, claim } from './lib.mjs';
import { checkPage } from './check.mjs';

expect(BASE, 'BOTPAY_URL is not set');

// seller registers a bot that earns, claimed by a new owner in the
// dashboard, and returns a helper calling the API with its key.
async function seller(page, name) {
  const email = `${unique('seller')}@example.com`;
  await signup(page, email);
  const reg = await register({ bot_name: name, owner_email: email, description: 'Sells reports' });
  await claim(page, reg.claim_token);
  await page.context().clearCookies();
  return async (method, path, body) => {
    const r = await api(method, path, body, reg.api_key);
    expect(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
}

const scenarios = {
  async 'checkout page, payment link and invoice'(page) {
    const call = await seller(page, 'Report Seller');
    const cp = await call('POST', '/api/v1/bot/checkout-pages/create', {
      title: 'Market report', description: 'A weekly report.', amount_usd: 12.5,
    });
    await checkPage(page, 'pay-page', { url: `${BASE}/pay/${cp.checkout_page_id}` });
    const link = await call('POST', '/api/v1/bot/payments/create-link', { amount_usd: 9.99, description: 'Consulting hour' });
    await checkPage(page, 'pay-link', { url: `${BASE}/pay/${link.payment_link_id}` });
    const inv = await call('POST', '/api/v1/bot/invoices/create', {
      checkout_page_id: cp.checkout_page_id, recipient_name: 'Ada Buyer', recipient_email: 'ada@example.com',
      line_items: [{ description: 'Report, March', quantity: 2, unit_price_usd: 12.5 }],
    });
    await checkPage(page, 'pay-invoice', { url: `${BASE}/pay/${cp.checkout_page_id}?ref=${encodeURIComponent(inv.reference_number)}` });
  },
};

const browser = await launch();
const failures = [];
for (const [name, run] of Object.entries(scenarios)) {
  const page = await browser.newPage();
  const problems = [];
  watch(page, problems);
  try {
    await run(page);
  } catch (err) {
    problems.push(err.stack || String(err));
    await shot(page, `failed-${name.replace(/\W+/g, '-')}`).catch(() => {});
  }
  await page.close();
  if (problems.length) {
    failures.push(name);
    console.log(`FAIL ${name}\n  ${problems.join('\n  ')}`);
  } else {
    console.log(`ok   ${name}`);
  }
}
await browser.close();
process.exit(failures.length ? 1 : 0);
