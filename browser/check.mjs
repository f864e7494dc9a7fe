// checkPage: the acceptance check of every page, at desktop and phone
// widths: a full-page screenshot kept as a CI artifact, an axe-core scan
// that fails on any serious or critical violation, and (by default) no
// horizontal scroll at phone width.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SHOTS } from './lib.mjs';

export const WIDTHS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
};

const require = createRequire(import.meta.url);
// Injected with page.evaluate, which the pages' CSP (no scripts at all)
// does not govern; a <script> tag would be refused.
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const BLOCKING = new Set(['serious', 'critical']);

// axeViolations runs axe-core on the page as it stands and returns the
// serious and critical violations as readable lines.
export async function axeViolations(page, options = {}) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.evaluate(AXE_SOURCE);
  }
  const results = await page.evaluate((opts) => window.axe.run(document, opts), { resultTypes: ['violations'], ...options });
  const lines = [];
  for (const v of results.violations) {
    if (!BLOCKING.has(v.impact)) continue;
    lines.push(`[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`);
    for (const node of v.nodes.slice(0, 5)) {
      lines.push(`    at ${node.target.join(' ')}: ${(node.failureSummary || '').replace(/\s+/g, ' ').trim()}`);
    }
    if (v.nodes.length > 5) lines.push(`    … and ${v.nodes.length - 5} more`);
  }
  return lines;
}

// horizontalOverflow returns how many CSS pixels the page is wider than
// the viewport (0 when it does not scroll sideways).
export async function horizontalOverflow(page) {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body?.scrollWidth || 0)
    - document.documentElement.clientWidth);
}

// controlsOutOfView lists the buttons, links and fields that a scrolling
// box (a wide table in an overflow-x section) pushes past the viewport's
// right edge: the page itself does not scroll sideways, yet a person on a
// phone cannot see or reach them.
export async function controlsOutOfView(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out = [];
    for (const el of document.querySelectorAll('button, a[href], input:not([type=hidden]), select, textarea')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.right <= 0) continue; // not shown, or a skip link parked until focused
      if (r.right > width + 1 || r.left < -1) {
        out.push(`${el.tagName.toLowerCase()} "${(el.innerText || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 40)}" spans ${Math.round(r.left)}–${Math.round(r.right)}px`);
      }
    }
    return out;
  });
}

// checkPage checks the page at each width and throws one error listing
// every problem. url, when given, is loaded at each width; otherwise the
// current page is checked as it stands, resized. Options: widths (names of WIDTHS),
// axe (options for axe.run), allowHorizontalScroll, fullPage (false keeps
// the screenshot to the viewport: a page too tall for one image).
export async function checkPage(page, name, { url, widths = Object.keys(WIDTHS), axe = {}, allowHorizontalScroll = false, fullPage = true } = {}) {
  const problems = [];
  const before = page.viewportSize();
  try {
    for (const w of widths) {
      await page.setViewportSize(WIDTHS[w]);
      // Without a url the page is only resized, never reloaded: it may
      // be the answer to a POST (a receipt) that must not be sent again.
      if (url) await page.goto(url);
      const file = join(SHOTS, `${name}-${w}.png`);
      await page.screenshot({ path: file, fullPage });
      for (const line of await axeViolations(page, axe)) problems.push(`${w}: axe ${line}`);
      if (w === 'phone' && !allowHorizontalScroll) {
        const over = await horizontalOverflow(page);
        if (over > 0) problems.push(`${w}: the page scrolls sideways by ${over}px at ${WIDTHS[w].width}px (see ${file})`);
        for (const c of await controlsOutOfView(page)) problems.push(`${w}: out of view at ${WIDTHS[w].width}px: ${c} (see ${file})`);
      }
    }
  } finally {
    if (before) await page.setViewportSize(before);
  }
  if (problems.length) {
    throw new Error(`${name} (${page.url()}):\n  ${problems.join('\n  ')}`);
  }
}
