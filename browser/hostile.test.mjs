// Renders every dashboard page (and the buyer pages) with hostile strings in
// every field a bot can write, and fails when any script runs: a dialog, a
// console error (a blocked inline script is reported as one) or a page
// error. Run by internal/browsertest against a real `botpay serve`.
import {
  BASE, launch, watch, shot, unique, api, expect, register, signup, claim, fund, addCard, checkoutBody, botURL,
} from './lib.mjs';

expect(BASE, 'BOTPAY_URL is not set');

const X = (n) => `<img src=x onerror=alert(${n})>"'</textarea><script>alert(${n})</script>`;
const SHORT = (n) => `<svg onload=alert(${n})>`;

const browser = await launch();
const page = await browser.newPage();
const problems = [];
watch(page, problems);
let failed = false;
try {
  const email = `${unique('owner')}@example.com`;
  await signup(page, email);
  const reg = await register({ bot_name: X(1), owner_email: email, description: X(2) });
  await claim(page, reg.claim_token);
  await fund(page, '100.00');
  await addCard(page);
  await page.getByLabel('Approval mode').selectOption('ask_for_everything');
  await page.getByRole('button', { name: 'Save guardrails' }).click();
  await page.waitForURL(/done=guardrails/);
  const botPage = botURL(page);
  const key = reg.api_key;

  const call = async (method, path, body) => {
    const r = await api(method, path, body, key);
    expect(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  // A held purchase, an approved one (after switching modes is not needed:
  // the held one is enough for the queue) and a top-up request.
  await call('POST', '/api/v1/bot/merchant/checkout', checkoutBody(1200, {
    merchant_name: X(3), merchant_url: `https://shop.example.com/${X(4)}`, item_name: X(5), category: SHORT(6),
  }));
  await call('POST', '/api/v1/bot/wallet/topup-request', { amount_usd: 25, reason: X(7) });
  await call('PATCH', '/api/v1/bot/profile', { description: X(8) }).catch(() => {});
  const cp = await call('POST', '/api/v1/bot/checkout-pages/create', {
    title: X(9), description: X(10), amount_usd: 12.5, collect_buyer_name: true,
    success_url: 'https://example.com/thanks?q="><script>alert(11)</script>',
  });
  const pageID = cp.checkout_page_id || cp.id;
  const link = await call('POST', '/api/v1/bot/payments/create-link', { amount_usd: 9.99, description: X(12) });
  const inv = await call('POST', '/api/v1/bot/invoices/create', {
    checkout_page_id: pageID, recipient_name: X(13), recipient_email: 'buyer@example.com', notes: X(14),
    line_items: [{ description: X(15), quantity: 1, unit_price_usd: 12.5 }],
  });
  const sale = await call('POST', `/api/v1/checkout/${pageID}/pay/sandbox`, { buyer_email: 'b@example.com', buyer_name: X(16) });

  const pages = [
    ['bots', BASE + '/dashboard'],
    ['bot', botPage],
    ['spending', botPage + '/spending'],
    ['settings', botPage + '/settings'],
    ['earning', botPage + '/earning'],
    ['approvals', BASE + '/dashboard/approvals'],
    ['master', BASE + '/dashboard/master-guardrails'],
    ['pay-page', `${BASE}/pay/${pageID}`],
    ['pay-link', `${BASE}/pay/${link.payment_link_id}`],
    ['pay-invoice', BASE + (inv.payment_url || `/pay/${pageID}?ref=${encodeURIComponent(inv.reference_number)}`)],
    ['receipt', `${BASE}/pay/${pageID}/receipt/${sale.sale_id}`],
  ];
  for (const [name, url] of pages) {
    const res = await page.goto(url);
    expect(res.status() === 200, `${name}: HTTP ${res.status()}`);
    const html = await page.content();
    expect(!/<script>alert/.test(html), `${name}: a hostile <script> reached the DOM unescaped`);
    expect(await page.locator('img[onerror], svg[onload]').count() === 0, `${name}: a hostile element reached the DOM`);
    await shot(page, `hostile-${name}`);
  }
  // The visible text shows the strings literally.
  await page.goto(BASE + '/dashboard/approvals');
  expect((await page.locator('main').textContent()).includes('<script>alert(5)</script>'), 'approvals do not show the item name literally');
  // Keyboard: every form control has a label, on every dashboard page.
  for (const [name, url] of pages.slice(0, 7)) {
    await page.goto(url);
    const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
      .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')).map((el) => el.name || el.id));
    expect(unlabelled.length === 0, `${name}: unlabelled controls ${unlabelled.join(', ')}`);
  }
  // Keyboard: Tab reaches the queue's Approve button and Enter decides.
  await page.goto(BASE + '/dashboard/approvals');
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.textContent?.trim() === 'Approve');
  }
  expect(reached, 'Tab never reaches the Approve button');
  await page.keyboard.press('Enter');
  await page.waitForURL(/done=approved/);
  // The owner cancels the bot's invoice from the earning page.
  await page.goto(botPage + '/earning');
  await page.getByRole('button', { name: /^Cancel invoice/ }).click();
  await page.waitForURL(/done=cancelled/);
  expect(await page.locator('.badge.cancelled').count() === 1, 'invoice not shown as cancelled');
} catch (err) {
  failed = true;
  problems.push(err.stack || String(err));
  await shot(page, 'hostile-failed').catch(() => {});
}
await browser.close();
if (problems.length) {
  console.log(`FAIL hostile strings\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('ok   hostile strings: no script ran on any page; every control labelled; keyboard approves');
process.exit(failed ? 1 : 0);
