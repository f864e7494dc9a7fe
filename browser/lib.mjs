// Shared helpers of the browser tests: launching Debian's chromium
// through playwright-core, the bot side of the API (plain fetch), and the
// checks every scenario makes (no console error, no dialog, a screenshot;
// checkPage adds both widths and the axe-core scan).
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BASE = process.env.BOTPAY_URL;
const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
// SCREENSHOT_DIR is set by internal/browsertest (one folder per script
// under $BOTPAY_ARTIFACTS_DIR); run by hand, the same default applies.
export const SHOTS = process.env.SCREENSHOT_DIR
  || join(process.env.BOTPAY_ARTIFACTS_DIR || join(REPO, 'artifacts', 'screenshots'), 'manual');
mkdirSync(SHOTS, { recursive: true });
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export async function launch() {
  const userDataDir = mkdtempSync(join(tmpdir(), 'botpay-chromium-'));
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
}

// watch fails the scenario on any console error, page error or dialog
// (a dialog would mean a bot-supplied string ran as script).
export function watch(page, problems) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error on ${page.url()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error on ${page.url()}: ${err.message}`));
  page.on('dialog', async (d) => {
    problems.push(`dialog (${d.type()}) on ${page.url()}: ${d.message()}`);
    await d.dismiss();
  });
}

export async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

let seq = 0;
export function unique(prefix) {
  seq += 1;
  return `${prefix}-${Date.now().toString(36)}${seq}`;
}

// api calls the JSON API; key is a bot API key or undefined.
export async function api(method, path, body, key) {
  const headers = { 'Content-Type': 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  const res = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json = {};
  try { json = JSON.parse(text); } catch { json = { raw: text }; }
  return { status: res.status, body: json };
}

export function expect(cond, message) {
  if (!cond) throw new Error(message);
}

export async function register(fields) {
  const r = await api('POST', '/api/v1/bots/register', fields);
  expect(r.status === 201, `register: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function signup(page, email) {
  await page.goto(BASE + '/signup');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(/^Password/).fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(/\/dashboard$/);
}

export async function claim(page, token) {
  await page.goto(BASE + '/dashboard');
  await page.getByLabel('Claim token').fill(token);
  await page.getByRole('button', { name: 'Claim' }).click();
  await page.waitForURL(/\/dashboard\/bots\//);
}

// fund funds the bot from its overview.
export async function fund(page, amount) {
  if (!/\/dashboard\/bots\/[^/?#]+([?#].*)?$/.test(page.url())) await section(page, '');
  await page.getByLabel('Add funds (USD)').fill(amount);
  await page.getByRole('button', { name: 'Fund wallet' }).click();
  await page.waitForURL(/done=funded/);
}

// botURL is the bot page (its overview) of whichever section the page
// shows; section opens one of its sections ('', '/spending', '/earning',
// '/settings').
export function botURL(page) {
  return page.url().replace(/[?#].*$/, '').replace(/\/(spending|earning|settings)$/, '');
}

export async function section(page, suffix) {
  await page.goto(botURL(page) + suffix);
}

// addCard adds a card from the bot's settings and stays there.
export async function addCard(page) {
  await section(page, '/settings');
  await page.getByText('Add a card').click();
  await page.getByLabel('Card name', { exact: true }).fill('Team card');
  await page.getByLabel(/^Missing digits/).fill('4242');
  await page.getByLabel('Expiry month (MM)', { exact: true }).fill('12');
  await page.getByLabel('Expiry year (YYYY)', { exact: true }).fill('2031');
  await page.getByLabel(/^Allowance per profile/).fill('500.00');
  await page.getByRole('button', { name: 'Add card' }).click();
  await page.waitForURL(/done=card/);
}

export const checkoutBody = (cents, extra = {}) => ({
  profile_index: 1, merchant_name: 'Acme', merchant_url: 'https://shop.acme.com/widgets',
  item_name: 'Widget', amount_cents: cents, category: 'retail', ...extra,
});

// until polls f (which returns truthy when done) for up to ms.
export async function until(f, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// runScenarios runs each scenario on a fresh page of browser (a failing one
// leaves a screenshot), prints ok or FAIL for each, closes the browser and
// exits non-zero when any failed.
export async function runScenarios(browser, scenarios) {
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
  console.log(`screenshots in ${SHOTS}`);
  process.exit(failures.length ? 1 : 0);
}
