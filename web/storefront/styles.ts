// The storefront's styles: one <style> element injected from here (the demo page links no CSS, and
// one file keeps the bundle the whole storefront). System fonts; colours chosen for WCAG AA
// contrast (body text 15:1, muted 7:1, sale red 5.9:1 on white); a visible focus ring everywhere.

const CSS_TEXT = `
:root {
  --ink: #1c2430; --muted: #505a66; --line: #dfe3e8; --paper: #ffffff; --wash: #f5f3ef;
  --brand: #1d3557; --brand-ink: #ffffff; --sale: #b3261e; --focus: #1a5fd0;
  --radius: 12px; --shadow: 0 1px 2px rgba(16,24,40,.06), 0 4px 16px rgba(16,24,40,.06);
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: var(--wash); }
html.has-modal { overflow: hidden; }
img { max-width: 100%; display: block; }
img.broken { visibility: hidden; }
button, input, select { font: inherit; color: inherit; }
a { color: inherit; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 4px; }
[hidden] { display: none !important; }
.sr-only { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.skip-link { position: absolute; left: .5rem; top: -3rem; z-index: 20; background: var(--brand); color: var(--brand-ink); padding: .5rem .9rem; border-radius: 8px; text-decoration: none; }
.skip-link:focus { top: .5rem; }
.muted { color: var(--muted); }

/* header */
.site-header { position: relative; z-index: 10; background: var(--paper); border-bottom: 1px solid var(--line); }
.header-inner { max-width: 1200px; margin: 0 auto; padding: .75rem 1rem; display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 1rem; }
.brand { display: inline-flex; align-items: center; gap: .55rem; font-weight: 700; font-size: 1.15rem; letter-spacing: .01em; text-decoration: none; color: var(--brand); margin-right: auto; }
.brand-mark { display: inline-grid; place-items: center; width: 2rem; height: 2rem; border-radius: 50%; background: var(--brand); color: var(--brand-ink); font-size: 1rem; }
.search { order: 3; flex: 1 1 100%; display: flex; min-width: 0; }
.search input { flex: 1; min-width: 0; padding: .6rem .9rem; border: 1px solid #8a94a0; border-right: 0; border-radius: 999px 0 0 999px; background: var(--paper); }
.search-button { padding: .6rem 1rem; border: 1px solid var(--brand); border-radius: 0 999px 999px 0; background: var(--brand); color: var(--brand-ink); font-weight: 600; cursor: pointer; }
.theme { display: flex; align-items: center; gap: .4rem; font-size: .9rem; }
.theme select { padding: .4rem .5rem; border: 1px solid #8a94a0; border-radius: 8px; background: var(--paper); }
.cart-button { display: inline-flex; align-items: center; gap: .4rem; padding: .5rem .85rem; border: 1px solid var(--line); border-radius: 999px; background: var(--paper); cursor: pointer; font-weight: 600; }
.cart-button:hover { border-color: var(--brand); }
.icon { width: 1.25rem; height: 1.25rem; fill: none; stroke: currentColor; stroke-width: 1.8; stroke-linejoin: round; }
.cart-count { min-width: 1.5rem; padding: 0 .4rem; border-radius: 999px; background: var(--brand); color: var(--brand-ink); font-size: .85rem; text-align: center; }
.cart-count.is-empty { background: #e7eaee; color: var(--ink); }
@media (min-width: 760px) {
  /* Sticky only where it costs little height; on a phone it would take a fifth of the screen. */
  .site-header { position: sticky; top: 0; }
  .search { order: 0; flex: 1 1 18rem; max-width: 32rem; }
  .brand { margin-right: 0; }
  .theme { margin-left: auto; }
}
@media (max-width: 759px) { .theme { order: 4; } }
@media (max-width: 420px) { .cart-word { display: none; } .brand { font-size: 1rem; gap: .4rem; } .brand-mark { width: 1.75rem; height: 1.75rem; } .header-inner { gap: .6rem .5rem; } .theme label { font-size: .85rem; } }

/* views */
main { max-width: 1200px; margin: 0 auto; padding: 1rem; min-height: 70vh; }
main:focus { outline: none; }
.filter-nav { margin: .25rem 0 1rem; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; }
.chip-group { display: flex; flex-wrap: wrap; gap: .5rem; }
.chip { padding: .4rem .95rem; border: 1px solid #8a94a0; border-radius: 999px; background: var(--paper); cursor: pointer; font-size: .95rem; }
.chip:hover { border-color: var(--brand); }
.chip[aria-pressed="true"] { background: var(--brand); border-color: var(--brand); color: var(--brand-ink); }
.view-head { display: flex; align-items: baseline; justify-content: space-between; gap: 1rem; flex-wrap: wrap; margin-bottom: .75rem; }
.view-title { margin: 0; font-size: 1.6rem; line-height: 1.2; }
.view-title:focus, .product-title:focus, #cart-title:focus { outline: none; }
.result-count { margin: 0; }
.grid { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 1rem; transition: opacity .15s; }
.is-loading .grid { opacity: .55; }
@media (min-width: 720px) { .grid { grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 1.25rem; } }
@media (min-width: 1000px) { .grid { grid-template-columns: repeat(4, minmax(0, 1fr)); } }
.card { display: block; height: 100%; text-decoration: none; background: var(--paper); border-radius: var(--radius); overflow: hidden; box-shadow: var(--shadow); transition: transform .15s, box-shadow .15s; }
.card:hover { transform: translateY(-2px); box-shadow: 0 2px 4px rgba(16,24,40,.08), 0 10px 24px rgba(16,24,40,.1); }
.card:focus-visible { border-radius: var(--radius); }
.card-media { position: relative; aspect-ratio: 4 / 5; background: #ebe8e2; }
.card-media img { width: 100%; height: 100%; object-fit: cover; }
.no-photo { display: grid; place-items: center; height: 100%; color: var(--muted); }
.card-title { margin: .7rem .8rem .2rem; font-size: .95rem; font-weight: 500; line-height: 1.35; }
.card .price, .card .muted { margin: 0 .8rem .8rem; }
.price { display: flex; flex-wrap: wrap; align-items: baseline; gap: .45rem; margin: 0; font-weight: 700; }
.price.big { font-size: 1.4rem; }
.now.sale { color: var(--sale); }
.was { color: var(--muted); font-weight: 400; font-size: .9em; }
.badge { position: absolute; top: .6rem; left: .6rem; padding: .15rem .55rem; border-radius: 999px; background: var(--sale); color: #fff; font-size: .8rem; font-weight: 700; }
.price-row .badge { position: static; }
.price-row { display: flex; align-items: center; gap: .75rem; margin: .5rem 0 1.25rem; }
.skeleton { background: var(--paper); border-radius: var(--radius); overflow: hidden; }
.skeleton .line { height: .8rem; margin: .8rem; border-radius: 4px; background: #ebe8e2; }
.skeleton .line.short { width: 40%; }
.empty, .notice { grid-column: 1 / -1; padding: 2rem 1rem; text-align: center; background: var(--paper); border-radius: var(--radius); }
.empty p, .notice p { margin: .25rem 0; }

/* buttons */
.button { display: inline-flex; justify-content: center; align-items: center; padding: .8rem 1.4rem; border-radius: 999px; border: 1px solid var(--brand); font-weight: 700; cursor: pointer; }
.button.primary { background: var(--brand); color: var(--brand-ink); }
.button.primary:hover { background: #14253d; }
.button.secondary { background: var(--paper); color: var(--brand); margin-top: .75rem; }
.button:disabled { background: #c9ced6; border-color: #c9ced6; color: #3b434d; cursor: not-allowed; }
.link-button { padding: 0; border: 0; background: none; color: var(--focus); text-decoration: underline; cursor: pointer; }
.icon-button { width: 2.5rem; height: 2.5rem; border: 1px solid var(--line); border-radius: 50%; background: var(--paper); font-size: 1.5rem; line-height: 1; cursor: pointer; }

/* product page */
.back-link { display: inline-block; margin: .25rem 0 1rem; color: var(--brand); font-weight: 600; text-decoration: none; }
.back-link:hover { text-decoration: underline; }
.product-layout { display: grid; gap: 1.5rem; }
@media (min-width: 900px) { .product-layout { grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr); gap: 2.5rem; align-items: start; } }
.gallery { display: grid; gap: .75rem; }
.main-photo { width: 100%; aspect-ratio: 4 / 5; object-fit: cover; border-radius: var(--radius); background: #ebe8e2; }
.thumbs { display: flex; gap: .5rem; flex-wrap: wrap; }
.thumb { padding: 0; border: 2px solid transparent; border-radius: 8px; overflow: hidden; background: none; cursor: pointer; }
.thumb[aria-pressed="true"] { border-color: var(--brand); }
.thumb img { width: 64px; height: 80px; object-fit: cover; }
.product-info { background: var(--paper); border-radius: var(--radius); padding: 1.25rem; box-shadow: var(--shadow); }
.vendor { margin: 0 0 .25rem; color: var(--muted); text-transform: uppercase; letter-spacing: .08em; font-size: .8rem; }
.product-title { margin: 0; font-size: 1.75rem; line-height: 1.2; }
.buy { display: grid; grid-template-columns: 1fr; gap: .5rem; }
.buy label { font-weight: 600; }
.buy select { padding: .65rem .75rem; border: 1px solid #8a94a0; border-radius: 8px; background: var(--paper); }
.buy .button { margin-top: .5rem; }
@media (min-width: 520px) { .buy { grid-template-columns: auto minmax(8rem, 12rem) 1fr; align-items: center; } .buy .button { margin-top: 0; } }
.added { min-height: 1.5rem; margin: .75rem 0 0; color: #1e6b3a; font-weight: 600; }
.description { margin-top: 1.25rem; border-top: 1px solid var(--line); padding-top: 1rem; }
.description h2 { margin: 0 0 .5rem; font-size: 1rem; }
.description p { margin: .35rem 0; }

/* cart drawer */
.drawer { margin: 0 0 0 auto; height: 100%; max-height: 100%; width: min(26rem, 100vw); max-width: 100vw; padding: 0; border: 0; background: var(--paper); color: var(--ink); display: none; flex-direction: column; box-shadow: -8px 0 32px rgba(16,24,40,.2); }
.drawer[open] { display: flex; animation: slide-in .2s ease-out; }
.drawer::backdrop { background: rgba(16,24,40,.45); }
@keyframes slide-in { from { transform: translateX(100%); } to { transform: none; } }
@media (prefers-reduced-motion: reduce) { .drawer[open] { animation: none; } .card, .grid { transition: none; } }
.drawer-head { display: flex; align-items: center; justify-content: space-between; padding: 1rem 1.25rem; border-bottom: 1px solid var(--line); }
.drawer-head h2 { margin: 0; font-size: 1.25rem; }
.cart-empty { padding: 1.25rem; color: var(--muted); }
.cart-lines { list-style: none; margin: 0; padding: .5rem 1.25rem; overflow-y: auto; flex: 1; }
.cart-line { display: grid; grid-template-columns: 64px minmax(0, 1fr) auto; gap: .75rem; padding: .85rem 0; border-bottom: 1px solid var(--line); }
.cart-line img, .thumb-placeholder { width: 64px; height: 80px; object-fit: cover; border-radius: 6px; background: #ebe8e2; }
.cart-line p { margin: 0; }
.cart-line-title { font-weight: 600; line-height: 1.3; }
.cart-line-price { font-weight: 700; white-space: nowrap; }
.cart-line-actions { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; margin-top: .5rem; }
.stepper { display: inline-flex; align-items: center; border: 1px solid #8a94a0; border-radius: 999px; }
.step { width: 2.25rem; height: 2.25rem; border: 0; background: none; font-size: 1.1rem; cursor: pointer; border-radius: 999px; }
.step:disabled { color: #8a94a0; cursor: not-allowed; }
.qty { min-width: 1.75rem; text-align: center; font-variant-numeric: tabular-nums; }
.cart-footer { padding: 1rem 1.25rem 1.5rem; border-top: 1px solid var(--line); }
.cart-total { display: flex; justify-content: space-between; margin: 0 0 .5rem; font-size: 1.1rem; }
.cart-note { margin: 0; color: var(--muted); font-size: .9rem; }

.site-footer { max-width: 1200px; margin: 2rem auto 0; padding: 1.5rem 1rem 6rem; color: var(--muted); font-size: .9rem; border-top: 1px solid var(--line); }
`;

/** Adds the stylesheet once (a second call, e.g. in a test that mounts twice, adds nothing). */
export function injectStyles(): void {
  if (document.getElementById('northwind-styles')) return;
  const style = document.createElement('style');
  style.id = 'northwind-styles';
  style.textContent = CSS_TEXT;
  document.head.appendChild(style);
}
