// The demo storefront and the embedded widget in a real browser (Debian's Chromium driven by
// playwright-core, headless), as a shopper uses them: open /demo, ask for an outfit and see
// products and a drawn look, tap a chip, answer a question card, add to the cart from a product
// page and see the storefront's cart change, stop a turn, switch the theme; at desktop and mobile
// widths. Any console error or failed request fails the test (the one request a stop cancels on
// purpose aside). axe-core runs in the page with the widget open and a turn shown: no serious or
// critical violation. Screenshots and the measured figures (time to interactive, text paint delay,
// the widget's size) are written to .tap/artefacts/. Skipped with a notice where Chromium is missing.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import t from 'tap';
import { executeCommand } from '../../app/cli/execute.js';
import type { Progress } from '../../app/cli/progress.js';
import { webBundles } from '../../infra/web/bundles.js';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/until.js';
import { freePort } from '../support/free-port.js';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `Chromium is not installed at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
const ARTEFACTS = path.resolve('.tap/artefacts');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');


/** Everything that went wrong in a page: console errors, uncaught exceptions, failed requests, 4xx/5xx answers. */
function watch(page: Page) {
  const problems: string[] = [];
  let expectedAborts = 0;
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    if (expectedAborts > 0 && request.url().endsWith('/v2/agent/chat')) {
      expectedAborts--;
      return;
    }
    problems.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText} (${new Date().toISOString()})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return { problems, expectAbort: () => void expectedAborts++ };
}

const widget = (page: Page, part: string) => page.locator(`[data-part="${part}"]`);

async function ask(page: Page, text: string): Promise<void> {
  const before = await widget(page, 'message').count();
  await widget(page, 'input').fill(text);
  await widget(page, 'input').press('Enter');
  await finished(page, before, text);
}

/** The turn after the `before`-th message has ended (its message says done, stopped or error). */
async function finished(page: Page, before: number, what: string): Promise<void> {
  await page
    .waitForFunction((count) => turnState(count) !== null, before, { timeout: 30_000 })
    .catch(async () => {
      throw new Error(`no reply to ${JSON.stringify(what)}: ${await widget(page, 'log').innerText()}`);
    });
}

/** Helpers the waits above run in the page: the widget's parts sit in an open shadow root. */
const PAGE_HELPERS = `
  window.widgetRoot = () => { for (const el of document.querySelectorAll('*')) if (el.shadowRoot && el.shadowRoot.querySelector('[data-part="launcher"]')) return el.shadowRoot; return null; };
  window.countParts = (part) => { const root = widgetRoot(); return root ? root.querySelectorAll('[data-part="' + part + '"]').length : 0; };
  window.turnState = (after) => { const root = widgetRoot(); if (!root) return null; const turns = [...root.querySelectorAll('[data-part="message"]')].slice(after).filter((el) => el.getAttribute('data-role') !== 'user'); const last = turns[turns.length - 1]; return last ? last.getAttribute('data-state') : null; };
  window.partVisible = (part) => { const root = widgetRoot(); const el = root && root.querySelector('[data-part="' + part + '"]'); return Boolean(el && !el.hidden && el.getClientRects().length); };
`;

/**
 * For the screenshots only: the photos on screen have loaded (or ten seconds passed). Not the
 * network going quiet: the widget's event batches and lazy photos keep it busy on a loaded machine.
 */
const photosLoaded = (page: Page) =>
  page
    .waitForFunction(
      () => {
        const root = widgetRoot();
        const images = [...(globalThis as any).document.images, ...(root ? root.querySelectorAll('img') : [])];
        return images.every((image: any) => image.loading === 'lazy' || image.complete);
      },
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);

interface Shopper {
  page: Page;
  problems: string[];
  expectAbort(): void;
}

async function openDemo(browser: Browser, base: string, viewport: { width: number; height: number }): Promise<Shopper> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const watched = watch(page);
  await page.addInitScript(PAGE_HELPERS);
  await page.goto(`${base}/demo`);
  await page.locator('[data-test="product-card"]').first().waitFor({ timeout: 30_000 });
  await widget(page, 'launcher').waitFor();
  return { page, ...watched };
}

// The demo's first 120 products rather than all 300: every kind of garment, in less than half the
// ingest time (drawing and storing every photo was most of this file's time); four dresses among them.
const DEMO_PRODUCTS = 120;

const seedProgress: Progress[] = [];
let base = '';
let service: TestService;
let browser: Browser;

t.before(async () => {
  if (skip) return;
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  service = await startTestService(t, {
    workers: ['ingest', 'agent'],
    // One shopper's browser is one address: the photo variants of a few grids must not be rationed here.
    env: { BASE_URL: base, IMAGE_VARIANT_BURST: '100000', IMAGE_VARIANTS_PER_MINUTE: '100000', DEMO_RPM: '100000', DEMO_PRODUCTS: String(DEMO_PRODUCTS) },
  });
  // As an operator would: `stylist demo seed --wait`, its progress reported until every product is live.
  const seeded = await executeCommand(service.platform, ['demo', 'seed', '--wait'], (step) => seedProgress.push(step));
  if (!seeded.ok) throw new Error(`demo seed --wait: ${seeded.error}`);
  const key = service.platform.config.demo.key;
  await until(
    'the demo catalogue searchable with photos',
    async () => (await service.app.inject({ method: 'POST', url: '/v1/search', headers: { authorization: `Bearer ${key}` }, payload: { query: 'dress', limit: 24 } })).json().results ?? [],
    (results: Array<{ product: { assets: { images: unknown[] } } }>) => results.length >= 4 && results.every((r) => r.product.assets.images.length > 0),
    { timeoutMs: 120_000, everyMs: 500 },
  );
  await service.app.listen({ port, host: '127.0.0.1' });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
  await mkdir(ARTEFACTS, { recursive: true });
});

t.teardown(async () => {
  await browser?.close();
});

const figures: Record<string, unknown> = {};

t.test('desktop: an outfit with products and a look, a chip, a question card, the cart, stop, the theme, and axe', { skip }, async (t) => {
  const last = seedProgress.at(-1);
  t.ok(seedProgress.length >= 2 && last && last.done === last.total && last.total! > 0, `demo seed --wait reported its progress to the end (${last?.done}/${last?.total} ${last?.unit})`);

  const shopper = await openDemo(browser, base, { width: 1280, height: 800 });
  const { page } = shopper;

  // Interactive: the launcher works this long after the widget's script arrived.
  // (Run in the page: the browser's globals, untyped here.)
  const timing = await page.evaluate(() => {
    const browserPerformance = (globalThis as any).performance;
    const ready = browserPerformance.getEntriesByName('stylist:ready')[0]?.startTime ?? NaN;
    const script = browserPerformance.getEntriesByType('resource').find((entry: any) => /\/widget\/[0-9a-f]{16}\.js$/.test(entry.name));
    return { ready: ready as number, scriptEnd: (script?.responseEnd ?? NaN) as number };
  });
  figures.interactiveAfterScriptMs = Math.round(timing.ready - timing.scriptEnd);
  figures.interactiveAfterNavigationMs = Math.round(timing.ready);
  t.ok(timing.ready > 0, 'the widget marks when it is ready');

  await widget(page, 'launcher').click();
  t.ok(await widget(page, 'panel').isVisible(), 'the launcher opens the panel');
  t.equal(await page.evaluate(() => (widgetRoot() as any).activeElement?.getAttribute('data-part')), 'input', 'focus goes to the message box');

  await ask(page, 'an outfit for a summer wedding');
  t.ok((await widget(page, 'product-card').count()) >= 2, 'product cards');
  const card = widget(page, 'product-card').first();
  t.match(await card.innerText(), /\d/, 'a card shows its price');
  t.match(await card.locator('img').getAttribute('srcset'), /\/-\/resize\/\d+x\/-\/format\/webp \d+w/, 'photos through the image route, with a srcset');
  const picture = page.locator('[data-part="look"] img[src^="data:image/"]').first();
  await picture.waitFor({ timeout: 30_000 });
  t.ok(await picture.isVisible(), 'a look drawn through POST /v2/agent/looks');
  t.ok((await widget(page, 'chip').count()) >= 1, 'suggestion chips');

  // Accessibility with the widget open and a turn shown.
  await page.addScriptTag({ path: AXE });
  const axe = (await page.evaluate(async () => {
    const page = globalThis as any;
    const result: { violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: unknown }> }> } = await page.axe.run(page.document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)) }));
  })) as Array<{ id: string; impact: string; help: string; nodes: string[] }>;
  const serious = axe.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  t.same(serious, [], 'no serious or critical accessibility violation');
  figures.axeOtherViolations = axe.filter((v) => !serious.includes(v)).map((v) => `${v.impact} ${v.id}`);

  await photosLoaded(page);
  await page.screenshot({ path: path.join(ARTEFACTS, 'demo-desktop.png') });

  // A chip is sent as the next message; only the latest set of chips stays.
  const chipText = (await widget(page, 'chip').first().innerText()).trim();
  const userMessages = () => page.locator('[data-part="message"][data-role="user"]').allInnerTexts();
  const beforeChip = await widget(page, 'message').count();
  await widget(page, 'chip').first().click();
  await finished(page, beforeChip, chipText);
  t.ok((await userMessages()).some((text) => text.includes(chipText)), 'the chip became the shopper\'s message');

  // A question card: its option is the next message.
  await ask(page, 'hello');
  const option = widget(page, 'option').last();
  await option.waitFor();
  const optionText = (await option.innerText()).trim();
  const beforeOption = await widget(page, 'message').count();
  await option.click();
  await finished(page, beforeOption, optionText);
  await until('the option sent', userMessages, (texts) => texts.some((text) => text.includes(optionText)), { timeoutMs: 30_000 });
  t.pass(`the option "${optionText}" was sent`);

  // The cart: a product page tells the widget what "this" is; the widget's cart action changes the storefront's cart.
  await page.locator('[data-test="product-card"]').first().click();
  const size = (await page.locator('[data-test="size-select"] option').first().innerText()).trim();
  const countBefore = Number((await page.locator('[data-test="cart-count"]').innerText()).trim() || 0);
  const productName = (await page.locator('[data-test="product-page"] h1').first().innerText()).trim();
  await ask(page, `add this in ${size}`);
  // The stylist may ask back: which product "this" is (with outfits on screen), or which size (a
  // label like "Turquoise / Toddler 7" for "Toddler 7"). The page's product and the size are the answers.
  for (let round = 0; round < 2 && (await widget(page, 'receipt').count()) === 0; round++) {
    const open = page.locator('[data-part="option"]:not([disabled])');
    const pick = open.filter({ hasText: productName }).or(open.filter({ hasText: size })).first();
    if (!(await pick.count())) break;
    const beforePick = await widget(page, 'message').count();
    const answer = (await pick.innerText()).trim();
    await pick.click();
    await finished(page, beforePick, answer);
  }
  await widget(page, 'receipt').last().waitFor({ timeout: 10_000 }).catch(async () => {
    const log = await widget(page, 'log').innerText();
    throw new Error(`no receipt for "add this in ${size}" on ${productName}: …${log.slice(-600)}`);
  });
  t.equal(await widget(page, 'receipt').last().getAttribute('data-ok'), 'true', 'a receipt of the cart action, applied');
  const counted = await until('the storefront cart counted it', async () => Number((await page.locator('[data-test="cart-count"]').innerText()).trim() || 0), (count) => count > countBefore, { timeoutMs: 10_000 });
  t.equal(counted, countBefore + 1, `one more in the storefront cart (${countBefore} → ${counted}): the number of a size label such as "Toddler 7" is not a quantity`);

  // Stop: a turn held back by the network is stopped by the shopper; the stop is said, not an error.
  await page.route('**/v2/agent/chat', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await route.continue().catch(() => undefined);
  });
  shopper.expectAbort();
  await widget(page, 'input').fill('something slow');
  await widget(page, 'input').press('Enter');
  await widget(page, 'stop').waitFor({ state: 'visible' });
  // A message typed while the answer streams waits for it, then goes as the next turn.
  await widget(page, 'input').fill('a navy blazer');
  await widget(page, 'input').press('Enter');
  await widget(page, 'queued').waitFor({ state: 'visible' });
  t.match(await widget(page, 'queued').innerText(), /a navy blazer/, 'the shopper is told the message waits');
  t.equal(await widget(page, 'input').inputValue(), '', 'and the input is free again');
  await widget(page, 'stop').click();
  await widget(page, 'stopped').last().waitFor({ timeout: 10_000 });
  t.equal(await widget(page, 'error').count(), 0, 'stopping is not an error');
  const queuedAt = await page
    .waitForFunction(() => {
      const messages = [...((globalThis as any).widgetRoot()?.querySelectorAll('[data-part="message"]') ?? [])] as Array<{ getAttribute(n: string): string | null; textContent: string | null }>;
      const at = messages.findIndex((m) => m.getAttribute('data-role') === 'user' && m.textContent === 'a navy blazer');
      return at >= 0 ? at + 1 : null;
    }, undefined, { timeout: 10_000 })
    .then((handle) => handle.jsonValue() as Promise<number>);
  await finished(page, queuedAt, 'a navy blazer');
  t.equal(await page.evaluate((after) => (globalThis as any).turnState(after), queuedAt), 'done', 'the waiting message was sent once the stopped answer ended, and answered');
  t.ok(await widget(page, 'queued').isHidden(), 'the note is gone');
  await page.unroute('**/v2/agent/chat');

  // The theme switch: the launcher takes the chosen theme's colours.
  const background = () => widget(page, 'launcher').evaluate((element) => (globalThis as any).getComputedStyle(element).backgroundColor as string);
  const themes = await page.locator('[data-test="theme-select"] option').allInnerTexts();
  t.ok(themes.includes('Midnight'), 'the demo themes are offered');
  await page.locator('[data-test="theme-select"]').selectOption({ label: 'Midnight' });
  await until('the Midnight colours', background, (colour) => colour === 'rgb(56, 189, 248)', { timeoutMs: 10_000 });
  await page.locator('[data-test="theme-select"]').selectOption({ label: 'Classic' });
  await until('the Classic colours', background, (colour) => colour === 'rgb(29, 78, 216)', { timeoutMs: 10_000 });

  // Streamed text painted after its frame arrived.
  const paints = await page.evaluate(() => performance.getEntriesByName('stylist:text-paint').map((entry) => entry.duration));
  t.ok(paints.length >= 3, 'text paint measured on every streamed turn');
  const sorted = [...paints].sort((a, b) => a - b);
  figures.textPaintMs = { count: sorted.length, p50: Math.round(sorted[Math.floor(sorted.length * 0.5)]!), p95: Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!) };

  t.same(shopper.problems, [], 'no console error and no failed request');
  await page.context().close();
});

t.test('mobile: the panel fills the screen and a turn works', { skip }, async (t) => {
  const shopper = await openDemo(browser, base, { width: 375, height: 740 });
  const { page } = shopper;
  await widget(page, 'launcher').click();
  const box = await widget(page, 'panel').boundingBox();
  t.ok(box && box.width >= 370 && box.height >= 700, `the panel fills the screen (${box?.width}×${box?.height})`);
  const pageScroll = () => page.evaluate(() => { const w = globalThis as any; return { overflow: w.getComputedStyle(w.document.documentElement).overflow as string, y: w.scrollY as number }; });
  await page.mouse.wheel(0, 600);
  t.same(await pageScroll(), { overflow: 'hidden', y: 0 }, 'the page behind the open panel does not scroll');
  await ask(page, 'a summer dress');
  t.comment(`mobile turn finished ${new Date().toISOString()}`);
  t.ok((await widget(page, 'product-card').count()) >= 1, 'products at mobile width');
  await photosLoaded(page);
  await page.screenshot({ path: path.join(ARTEFACTS, 'demo-mobile.png') });
  await page.keyboard.press('Escape');
  t.notOk(await widget(page, 'panel').isVisible(), 'Escape closes the panel');
  t.equal((await pageScroll()).overflow, 'visible', 'and the page scrolls again');
  t.equal(await page.evaluate(() => (widgetRoot() as any).activeElement?.getAttribute('data-part')), 'launcher', 'focus returns to the launcher');
  t.same(shopper.problems, [], 'no console error and no failed request');
  await page.context().close();
});

t.test('the widget script: its size, and the figures of this run', { skip }, async (t) => {
  const { widget: bundle } = await webBundles();
  const gzip = gzipSync(bundle.code, { level: 9 }).length;
  figures.widgetBytes = { minified: bundle.code.length, gzip };
  t.ok(gzip <= 25 * 1024, `the widget is ${gzip} bytes gzipped (goal: at most 25 KB)`);
  await writeFile(path.join(ARTEFACTS, 'widget-figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
  t.comment(`widget figures: ${JSON.stringify(figures)}`);
});

declare global {
  function widgetRoot(): any;
  function countParts(part: string): number;
  function partVisible(part: string): boolean;
  function turnState(after: number): string | null;
}
