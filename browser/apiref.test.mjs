// Browser check of the API reference at /docs/api: rendered without
// script, every operation with its curl example, at desktop and phone
// widths with screenshots and an axe-core scan (checkPage), and a
// screenshot of the checkout operation's section kept as an artifact.
// Run by internal/browsertest against a real `botpay serve`.
import { join } from 'node:path';
import { BASE, launch, expect, runScenarios, SHOTS } from './lib.mjs';
import { checkPage, WIDTHS } from './check.mjs';

expect(BASE, 'BOTPAY_URL is not set');

const scenarios = {
  async 'API reference: every operation, examples and the checkout section'(page) {
    const res = await page.goto(BASE + '/docs/api');
    expect(res.status() === 200 && res.headers()['content-type'].startsWith('text/html'), `GET /docs/api: ${res.status()}`);
    expect(await page.locator('script').count() === 0, 'the reference has a script');
    const doc = await (await fetch(BASE + '/openapi.json')).json();
    expect(doc.servers.length === 1 && doc.servers[0].url === BASE, `/openapi.json names ${JSON.stringify(doc.servers)}, not ${BASE}`);
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        if (!op.operationId) continue;
        const section = page.locator(`[id="${op.operationId}"]`);
        expect(await section.count() === 1, `no section for ${op.operationId}`);
      }
    }
    for (const name of Object.keys(doc.components.schemas)) {
      expect(await page.locator(`[id="schema-${name}"]`).count() === 1, `the schema index lacks ${name}`);
    }
    for (const event of Object.keys(doc.webhooks)) {
      expect(await page.locator(`[id="event-${event}"]`).count() === 1, `the webhooks lack ${event}`);
    }
    const checkout = page.locator('#checkout');
    const text = await checkout.innerText();
    for (const want of [`curl -X POST '${BASE}/api/v1/bot/merchant/checkout'`, 'Authorization: Bearer $BOTPAY_API_KEY',
      'HTTP/1.1 200 OK', 'merchant_name', 'card_guardrail_violation', 'Idempotency-Key']) {
      expect(text.includes(want), `the checkout section lacks ${want}`);
    }
    expect(await checkout.getByRole('link', { name: 'CheckoutRequest' }).count() === 1, 'the request body does not link its schema');
    await checkout.getByRole('link', { name: 'CheckoutRequest' }).click();
    expect(page.url().endsWith('#schema-CheckoutRequest'), `the schema link goes to ${page.url()}`);
    // The whole reference is too tall for one image: the viewport, and the
    // checkout section below.
    const started = Date.now();
    await checkPage(page, 'api-reference', { url: BASE + '/docs/api', fullPage: false });
    console.log(`checkPage took ${Date.now() - started} ms`);
    for (const [w, size] of Object.entries(WIDTHS)) {
      await page.setViewportSize(size);
      await page.locator('#checkout').screenshot({ path: join(SHOTS, `api-reference-checkout-${w}.png`) });
    }
  },
};

const browser = await launch();
await runScenarios(browser, scenarios);
