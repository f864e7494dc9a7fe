// Browser scenarios of the owner dashboard against a real `botpay serve`
// (BOTPAY_URL). Run by internal/browsertest; exits non-zero when any
// scenario fails. Each scenario saves a screenshot to SCREENSHOT_DIR.
import http from 'node:http';
import {
  BASE, SHOTS, launch, watch, shot, unique, api, expect, register, signup, claim, fund, addCard,
  checkoutBody, until, botURL, section, runScenarios
} from './lib.mjs';

expect(BASE, 'BOTPAY_URL is not set');

// A bot that spends: registered for a fresh owner, claimed in the
// dashboard, funded, with a card and guardrails edited to ask for
// everything.
async function spendingBot(page, name, opts = {}) {
  const email = `${unique('owner')}@example.com`;
  await signup(page, email);
  const reg = await register({ bot_name: name, owner_email: email, description: opts.description ?? 'Buys widgets', ...(opts.register || {}) });
  await claim(page, reg.claim_token);
  await fund(page, '100.00');
  await addCard(page);
  await page.getByLabel('Approval mode').selectOption('ask_for_everything');
  await page.getByLabel('Per transaction (USD)').fill('80.00');
  await page.getByRole('button', { name: 'Save guardrails' }).click();
  await page.waitForURL(/done=guardrails/);
  expect(await page.getByLabel('Per transaction (USD)').inputValue() === '80.00', 'guardrails not saved');
  return { email, reg, key: reg.api_key, botPage: botURL(page) };
}

async function decideInQueue(page, id, action) {
  await page.goto(BASE + '/dashboard/approvals');
  const row = page.locator(`tr[data-id="${id}"]`);
  await row.getByRole('button', { name: action === 'approve' ? /^Approve/ : /^Deny/ }).click();
  await page.waitForURL(/done=(approved|denied)/);
}

const scenarios = {
  async 'claim, fund, guardrails, approve and deny held purchases'(page) {
    const bot = await spendingBot(page, 'Shopper');
    const held = await api('POST', '/api/v1/bot/merchant/checkout', checkoutBody(2500), bot.key);
    expect(held.status === 202 && held.body.status === 'pending_confirmation', `checkout not held: ${held.status} ${JSON.stringify(held.body)}`);
    await page.goto(BASE + '/dashboard/approvals');
    expect(await page.locator(`tr[data-id="${held.body.confirmation_id}"]`).count() === 1, 'held purchase not in the queue');
    await shot(page, 'approvals-queue');
    await decideInQueue(page, held.body.confirmation_id, 'approve');
    const st = await api('GET', `/api/v1/bot/merchant/checkout/status?confirmation_id=${held.body.confirmation_id}`, undefined, bot.key);
    expect(st.body.status === 'approved', `status poll after approval: ${JSON.stringify(st.body)}`);

    const other = await api('POST', '/api/v1/bot/merchant/checkout', checkoutBody(1500, { item_name: 'Gadget' }), bot.key);
    expect(other.status === 202, `second checkout: ${other.status}`);
    await decideInQueue(page, other.body.confirmation_id, 'deny');
    const st2 = await api('GET', `/api/v1/bot/merchant/checkout/status?confirmation_id=${other.body.confirmation_id}`, undefined, bot.key);
    expect(st2.body.status === 'denied', `status poll after denial: ${JSON.stringify(st2.body)}`);
    await page.goto(bot.botPage);
    expect((await page.getByTestId('balance').textContent()).includes('$75.00'), 'balance after the approved purchase is not $75.00');
    await section(page, '/spending');
    await page.getByText('Give the bot a task').click();
    await page.getByLabel('Item').fill('Printer paper');
    await page.getByLabel('Merchant', { exact: true }).fill('Paper Co');
    await page.getByLabel('Merchant URL').fill('https://paper.example.com');
    await page.getByLabel('Amount (USD)').fill('9.50');
    await page.getByRole('button', { name: 'Queue task' }).click();
    await page.waitForURL(/done=task/);
    const task = await api('POST', '/api/v1/bot/tasks/next', undefined, bot.key);
    expect(task.body.has_task === true, `the queued task did not reach the bot: ${JSON.stringify(task.body)}`);
    await shot(page, 'bot-page');
  },

  async 'approve and deny held x402 signing requests in the queue'(page) {
    const email = `${unique('owner')}@example.com`;
    await signup(page, email);
    const reg = await register({ bot_name: 'Signer', owner_email: email });
    await claim(page, reg.claim_token);
    const botPage = page.url().replace(/\?.*$/, '');
    // The session cookie is an owner token; the processor wallet is made
    // and funded through the owner API.
    const session = (await page.context().cookies()).find((c) => c.name === 'botpay_session').value;
    const wallet = await api('POST', `/api/v1/owner/bots/${reg.bot_id}/processor-wallet`, undefined, session);
    expect(wallet.status === 201, `processor wallet: ${wallet.status} ${JSON.stringify(wallet.body)}`);
    const funded = await api('POST', `/api/v1/owner/bots/${reg.bot_id}/fund`, { amount_usd: 10, rail: 'processor_wallet' }, session);
    expect(funded.status === 200, `fund processor wallet: ${funded.status} ${JSON.stringify(funded.body)}`);
    await page.goto(botPage + '/settings');
    await page.getByLabel('Approval mode').selectOption('ask_for_everything');
    await page.getByRole('button', { name: 'Save guardrails' }).click();
    await page.waitForURL(/done=guardrails/);
    await page.goto(botPage);
    expect((await page.getByTestId('processor-wallet').textContent()).trim() === wallet.body.address, 'bot page does not show the processor wallet address');

    const sign = (amount) => api('POST', '/api/v1/processor-wallet/bot/sign', {
      resource_url: 'https://api.vendor.example/report?q=1', amount_usdc: amount,
      recipient_address: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
    }, reg.api_key);
    const held = await sign(2500000);
    expect(held.status === 202 && held.body.status === 'awaiting_approval', `sign not held: ${held.status} ${JSON.stringify(held.body)}`);
    await page.goto(BASE + '/dashboard/approvals');
    const row = page.locator(`tr[data-kind="signing"][data-id="${held.body.approval_id}"]`);
    expect(await row.count() === 1, 'held signing request not in the queue');
    expect((await row.textContent()).includes('2.50 USDC'), 'signing request amount not shown in USDC');
    await shot(page, 'approvals-signing');
    await decideInQueue(page, held.body.approval_id, 'approve');
    const events = async () => (await api('GET', '/api/v1/bot/messages', undefined, reg.api_key)).body.messages.map((m) => m.event);
    await until(async () => (await events()).includes('purchase.approved'), 10000, 'purchase.approved for the bot');

    const other = await sign(1000000);
    expect(other.status === 202, `second sign: ${other.status}`);
    await decideInQueue(page, other.body.approval_id, 'deny');
    await until(async () => (await events()).includes('purchase.rejected'), 10000, 'purchase.rejected for the bot');
    const left = await api('GET', '/api/v1/owner/signing-requests', undefined, session);
    expect(left.body.approvals.length === 0, `signing requests left: ${JSON.stringify(left.body)}`);

    // The owner blocks the vendor's recipient in the procurement controls
    // form: a signature for it is refused, whatever resource is named.
    const vendor = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';
    await page.goto(botPage + '/settings');
    await page.getByLabel(/^Blocked x402 recipients/).fill(vendor.toLowerCase());
    await page.getByRole('button', { name: 'Save procurement controls' }).click();
    await page.waitForURL(/done=procurement/);
    expect((await page.getByLabel(/^Blocked x402 recipients/).inputValue()).trim() === vendor, 'blocked recipient not saved');
    const saved = await api('GET', `/api/v1/owner/bots/${reg.bot_id}/procurement`, undefined, session);
    expect(JSON.stringify(saved.body.blocked_recipients) === JSON.stringify([vendor]), `procurement: ${JSON.stringify(saved.body)}`);
    const refused = await sign(1000000);
    expect(refused.status === 403, `sign for a blocked recipient: ${refused.status} ${JSON.stringify(refused.body)}`);
  },

  async 'freeze the wallet and see checkout refused'(page) {
    const bot = await spendingBot(page, 'Freezer');
    await page.getByText('Give the bot a rail5 card').click();
    await page.getByLabel('Rail5 card name').fill('Owner Visa');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('CVV').fill('123');
    await page.getByLabel('Rail5 card expiry month (MM)').fill('11');
    await page.getByLabel('Rail5 card expiry year (YYYY)').fill('2030');
    await page.getByLabel('Cardholder name').fill('Ada Owner');
    await page.getByRole('button', { name: 'Send the card to the bot' }).click();
    await page.waitForURL(/done=card/);
    expect((await page.locator('main').textContent()).includes('···· 4242'), 'rail5 card not listed');
    await page.goto(bot.botPage);
    await page.getByRole('button', { name: 'Freeze wallet' }).click();
    await page.waitForURL(/done=frozen/);
    expect((await page.getByTestId('bot-status').textContent()).trim() === 'frozen', 'bot status not frozen');
    const r = await api('POST', '/api/v1/bot/merchant/checkout', checkoutBody(500), bot.key);
    expect(r.status === 403 && r.body.error === 'wallet_frozen', `checkout of a frozen bot: ${r.status} ${JSON.stringify(r.body)}`);
    await shot(page, 'frozen');
  },

  async 'webhook health of a failing callback goes degraded then unreachable'(page) {
    const failing = http.createServer((req, res) => { res.statusCode = 500; res.end('down'); });
    await new Promise((r) => failing.listen(0, '127.0.0.1', r));
    try {
      const email = `${unique('owner')}@example.com`;
      await signup(page, email);
      const reg = await register({ bot_name: 'Flaky', owner_email: email, callback_url: `http://127.0.0.1:${failing.address().port}/hook` });
      await claim(page, reg.claim_token);
      const botPage = botURL(page);
      const status = async () => { await page.goto(botPage); return (await page.getByTestId('webhook-status').textContent()).trim(); };
      // Each event fails once; retries wait 30 s, so one failure shows as
      // degraded and the next event's failure makes it unreachable.
      let s = await until(async () => { const v = await status(); return v !== 'active' && v; }, 3000, 'a first failure').catch(() => 'active');
      if (s === 'active') {
        await fund(page, '1.00');
        s = await until(async () => { const v = await status(); return v !== 'active' && v; }, 10000, 'degraded');
      }
      expect(s === 'degraded', `webhook status after one failure: ${s}`);
      await shot(page, 'webhook-degraded');
      await fund(page, '2.00');
      s = await until(async () => { const v = await status(); return v === 'unreachable' && v; }, 10000, 'unreachable');
      await page.goto(BASE + '/dashboard');
      expect((await page.getByTestId('webhook-status').first().textContent()).trim() === 'unreachable', 'bots list does not show unreachable');
      await shot(page, 'webhook-unreachable');
    } finally {
      failing.close();
    }
  },
};

const browser = await launch();
await runScenarios(browser, scenarios);
