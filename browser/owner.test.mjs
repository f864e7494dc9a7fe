// Browser checks of the owner's pages (issue 23): the overview, the bot's
// four sections with their charts, the approvals queue and the e-mail
// decision page, each at desktop and phone widths with screenshots and an
// axe-core scan (checkPage). Run by internal/browsertest against a real
// `botpay serve`; BOTPAY_MAIL_DIR is where it writes its mail.
import http from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BASE, launch, watch, shot, unique, api, expect, register, signup, claim, fund, addCard, checkoutBody, until, botURL, section, runScenarios
} from './lib.mjs';
import { checkPage } from './check.mjs';

expect(BASE, 'BOTPAY_URL is not set');
const MAIL_DIR = process.env.BOTPAY_MAIL_DIR;

// decisionLinks reads the approve and deny links of the held-purchase mail
// about item from the service's mail folder (quoted-printable decoded).
function decisionLinks(item) {
  for (const name of readdirSync(MAIL_DIR)) {
    const raw = readFileSync(join(MAIL_DIR, name), 'utf8').replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
    if (!raw.includes('Approval needed') || !raw.includes(item)) continue;
    const approve = raw.match(/^Approve: (\S+)$/m);
    const deny = raw.match(/^Deny: (\S+)$/m);
    if (approve && deny) return { approve: approve[1], deny: deny[1] };
  }
  return null;
}

// setGuardrails saves the guardrails form of the bot's settings.
async function setGuardrails(page, { mode, perTransaction, above }) {
  await section(page, '/settings');
  await page.getByLabel('Approval mode').selectOption(mode);
  await page.getByLabel('Per transaction (USD)').fill(perTransaction);
  await page.getByLabel(/^Ask for approval above/).fill(above);
  await page.getByRole('button', { name: 'Save guardrails' }).click();
  await page.waitForURL(/done=guardrails/);
}

// approvedBars reads the approved chart's bars: title and drawn height, and
// the plot height (the chart's viewBox less its margins).
async function approvedBars(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('svg[data-chart="chart-approved"]');
    const bars = [...svg.querySelectorAll('rect.bar')].map((r) => ({
      title: r.querySelector('title').textContent, height: parseFloat(r.getAttribute('height')),
    }));
    const clipped = [...svg.querySelectorAll('text')].filter((t) => t.getBBox().x < 0).map((t) => t.textContent);
    return { bars, plot: svg.viewBox.baseVal.height - 12 - 28, clipped };
  });
}

let state = {};

const scenarios = {
  async 'overview, bot sections and charts at both widths'(page) {
    const failing = http.createServer((req, res) => { res.statusCode = 500; res.end('down'); });
    await new Promise((r) => failing.listen(0, '127.0.0.1', r));
    try {
      const email = `${unique('owner')}@example.com`;
      await signup(page, email);
      const reg = await register({ bot_name: 'Office Buyer', owner_email: email, description: 'Buys office supplies' });
      await claim(page, reg.claim_token);
      const botPage = botURL(page);
      await fund(page, '12500.00');
      await addCard(page);
      await setGuardrails(page, { mode: 'auto_approve_under_threshold', perTransaction: '100.00', above: '50.00' });
      const buy = (cents, extra) => api('POST', '/api/v1/bot/merchant/checkout', checkoutBody(cents, extra), reg.api_key);
      for (const [cents, category] of [[500, 'coffee'], [500, 'coffee'], [500, 'coffee'], [1200, 'books']]) {
        const r = await buy(cents, { category, item_name: `${category} item` });
        expect(r.status === 200 && r.body.approved === true, `purchase of ${cents}: ${r.status} ${JSON.stringify(r.body)}`);
      }
      const declined = await buy(999900, { item_name: 'Yacht', category: 'leisure' });
      expect(declined.status === 403, `the $9,999 attempt: ${declined.status} ${JSON.stringify(declined.body)}`);
      const held = await buy(6000, { item_name: 'Standing desk', category: 'furniture' });
      expect(held.status === 202, `held purchase: ${held.status} ${JSON.stringify(held.body)}`);
      state = { heldID: held.body.confirmation_id, email };

      const session = (await page.context().cookies()).find((c) => c.name === 'botpay_session').value;
      expect((await api('POST', `/api/v1/owner/bots/${reg.bot_id}/processor-wallet`, undefined, session)).status === 201, 'processor wallet');
      expect((await api('POST', `/api/v1/owner/bots/${reg.bot_id}/fund`, { amount_usd: 1234.5, rail: 'processor_wallet' }, session)).status === 200, 'USDC funding');
      const cp = await api('POST', '/api/v1/bot/checkout-pages/create', { title: 'Market report', amount_usd: 12.5 }, reg.api_key);
      expect(cp.status < 300, `checkout page: ${cp.status}`);
      const sale = await api('POST', `/api/v1/checkout/${cp.body.checkout_page_id}/pay/sandbox`, { buyer_email: 'b@example.com', buyer_name: 'Bea' });
      expect(sale.status < 300, `sandbox sale: ${sale.status} ${JSON.stringify(sale.body)}`);

      // A second bot: low balance, failing webhook.
      const thrifty = await register({ bot_name: 'Thrifty', owner_email: email, callback_url: `http://127.0.0.1:${failing.address().port}/hook` });
      await claim(page, thrifty.claim_token);
      await fund(page, '2.00');
      const topup = await api('POST', '/api/v1/bot/wallet/topup-request', { amount_usd: 20, reason: 'Printer ink for the whole office, as agreed' }, thrifty.api_key);
      expect(topup.status < 300, `top-up request: ${topup.status} ${JSON.stringify(topup.body)}`);
      await until(async () => {
        await page.goto(BASE + '/dashboard');
        return (await page.locator('[data-testid="failing-webhooks"]').count()) === 1;
      }, 15000, 'the failing webhook on the overview');

      const main = await page.locator('main').textContent();
      expect(main.indexOf('1 request awaits your decision') < main.indexOf('Across your bots'), 'pending approvals are not first');
      expect((await page.getByTestId('total-balance').textContent()).trim() === '$12,487.50', `total balance: ${await page.getByTestId('total-balance').textContent()}`);
      expect((await page.getByTestId('low-balances').textContent()).includes('Thrifty'), 'Thrifty not listed as low');
      await checkPage(page, 'owner-overview');

      await page.goto(botPage);
      expect((await page.getByTestId('balance').textContent()).trim() === '$12,485.50', `balance: ${await page.getByTestId('balance').textContent()}`);
      const pending = page.getByTestId('bot-pending');
      expect((await pending.getAttribute('class')) === 'attention', 'the pending notice is not in the attention style');
      await checkPage(page, 'bot-overview');

      await page.getByRole('link', { name: 'Spending', exact: true }).click();
      await page.waitForURL(/\/spending$/);
      const { bars, plot, clipped } = await approvedBars(page);
      const today = bars[bars.length - 1];
      expect(today.title.endsWith('$27.00'), `today's approved bar: ${today.title}`);
      expect(today.height >= plot / 3, `today's approved bar is ${today.height}px of a ${plot}px plot beside a declined $9,999`);
      expect(!bars.some((b) => b.title.includes('9,999')), 'the declined attempt is in the approved chart');
      expect(clipped.length === 0, `chart labels clipped: ${clipped.join(', ')}`);
      const tx = await page.locator('#h-tx').locator('..').textContent();
      expect(tx.includes('1,234.50 USDC') && tx.includes('$12,500.00'), 'transactions lack a rail or separators');
      await checkPage(page, 'bot-spending');

      await page.getByRole('link', { name: 'Earning', exact: true }).click();
      await page.waitForURL(/\/earning$/);
      await checkPage(page, 'bot-earning');
      await page.getByRole('link', { name: 'Settings', exact: true }).click();
      await page.waitForURL(/\/settings$/);
      await checkPage(page, 'bot-settings');
      await checkPage(page, 'approvals', { url: BASE + '/dashboard/approvals' });
      expect((await page.getByTestId('topup').count()) === 1, 'the open top-up request is not in the approvals queue');
      await page.getByRole('button', { name: 'Fund $20.00 for Thrifty' }).click();
      await page.waitForURL(/\/dashboard\/approvals\?done=topup-fund/);
      expect((await page.getByTestId('topup').count()) === 0, 'the funded top-up request still waits');
    } finally {
      failing.close();
    }
  },

  async 'e-mail decision page: no login, both buttons, works once'(page) {
    expect(state.heldID, 'no held purchase from the first scenario');
    await page.context().clearCookies();
    const links = decisionLinks('Standing desk');
    expect(links, `no decision mail in ${MAIL_DIR}`);
    await page.goto(links.approve);
    for (const [id, want] of [['decide-amount', '$60.00'], ['decide-bot', 'Office Buyer'], ['decide-item', 'Standing desk'],
      ['decide-merchant', 'Acme'], ['decide-category', 'furniture'], ['decide-held-by', 'above $50.00']]) {
      const text = await page.getByTestId(id).textContent();
      expect(text.includes(want), `${id}: ${text}`);
    }
    expect(/\d+ min/.test(await page.getByTestId('decide-time-left').textContent()), 'no time left');
    await checkPage(page, 'decide');
    // Keyboard: the first Tab stop after the header is the link's own
    // action, and Enter decides.
    await page.getByRole('button', { name: 'Approve' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="decided"]');
    expect((await page.getByTestId('decided').textContent()).includes('approved'), 'not approved');
    await checkPage(page, 'decide-done');
    // The refusal answers 409, which chromium logs as a console error:
    // it is looked at in a page of its own, not watched for errors.
    const refused = await page.context().newPage();
    try {
      const again = await refused.goto(links.deny);
      expect(again.status() === 409, `the deny link after the decision: HTTP ${again.status()}`);
      expect((await refused.locator('h1').textContent()).includes('already decided'), 'the refusal does not say why');
      expect(await refused.getByRole('button', { name: 'Approve' }).count() === 0, 'a decided request still offers Approve');
      await checkPage(refused, 'decide-used');
    } finally {
      await refused.close();
    }
    const st = await api('GET', `/api/v1/owner/approvals`, undefined, undefined);
    expect(st.status === 401, 'the owner API answered without a token');
  },
};

const browser = await launch();
await runScenarios(browser, scenarios);
