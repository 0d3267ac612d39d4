// The widget's own styles, inside its shadow root (nothing leaks to the page, nothing of the page's
// CSS reaches in except inherited font settings, which :host resets). Colours and roundness are
// custom properties on the host, set from the theme (theme.ts); the defaults here pass WCAG AA.
import type { WidgetPreset } from './types.js';

const DEFAULTS: Record<string, string> = {
  '--sw-button': '#111827',
  '--sw-button-hover': '#374151',
  '--sw-button-text': '#ffffff',
  '--sw-dot': '#6b7280',
  '--sw-accent': '#1d4ed8',
  '--sw-accent-hover': '#1e40af',
  '--sw-muted': '#4b5563',
  '--sw-text': '#111827',
  '--sw-page': '#ffffff',
  '--sw-surface': '#f3f4f6',
  '--sw-border': '#d1d5db',
  '--sw-input': '#ffffff',
  '--sw-footer': '#f9fafb',
  '--sw-round': '0.75',
};

const defaults = Object.keys(DEFAULTS)
  .map((name) => `${name}:${DEFAULTS[name]};`)
  .join('');

// r(n): a corner of n px at full roundness (roundness 0 gives square corners).
const r = (px: number) => `calc(var(--sw-round) * ${px}px)`;

/** Where the panel takes the whole screen (and the page behind it stops scrolling). */
export const FULL_SCREEN_MEDIA = '(max-width: 639.98px)';

export const STYLES = `
:host{all:initial;${defaults}}
.root{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--sw-text);text-align:left;letter-spacing:normal}
*{box-sizing:border-box}
[hidden]{display:none!important}
button,input,textarea{font:inherit;color:inherit}
button{cursor:pointer}
:focus-visible{outline:3px solid var(--sw-accent);outline-offset:2px}
.launcher{position:fixed;right:20px;bottom:20px;z-index:2147483000;min-height:48px;padding:0 20px;border:0;border-radius:${r(28)};background:var(--sw-button);color:var(--sw-button-text);font-weight:600;box-shadow:0 4px 16px rgba(0,0,0,.2)}
.launcher:hover{background:var(--sw-button-hover)}
.panel{position:fixed;right:20px;bottom:84px;z-index:2147483001;width:400px;height:640px;max-width:calc(100vw - 40px);max-height:calc(100vh - 104px);display:flex;flex-direction:column;background:var(--sw-page);border:1px solid var(--sw-border);border-radius:${r(16)};box-shadow:0 12px 40px rgba(0,0,0,.25);overflow:hidden}
@media ${FULL_SCREEN_MEDIA}{.panel{inset:0;width:100%;height:100%;max-width:none;max-height:none;border:0;border-radius:0}.open .launcher{display:none}}
header{display:flex;align-items:center;gap:8px;padding:12px 12px 12px 16px;border-bottom:1px solid var(--sw-border);background:var(--sw-surface)}
h2{flex:1;margin:0;font-size:16px}
.icon{width:36px;height:36px;border:0;border-radius:${r(18)};background:transparent;font-size:20px;line-height:1}
.icon:hover{background:var(--sw-border)}
.log{flex:1;overflow-y:auto;padding:16px;display:flex;flex-direction:column;gap:12px;overscroll-behavior:contain}
.msg{max-width:100%}
.user{align-self:flex-end;max-width:85%;padding:8px 12px;border-radius:${r(14)};background:var(--sw-accent);color:#fff;white-space:pre-wrap;overflow-wrap:anywhere}
.turn{display:flex;flex-direction:column;gap:10px}
.text{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
.muted,.label{color:var(--sw-muted);font-size:13px}
.label{margin:0 0 6px;font-weight:600}
.row{display:flex;gap:8px;overflow-x:auto;padding-bottom:4px}
.outfit{padding:8px;border:1px dashed var(--sw-border);border-radius:${r(12)}}
.item{flex:0 0 140px;display:flex}
.card{width:100%;display:flex;flex-direction:column;text-align:left;padding:0;border:1px solid var(--sw-border);border-radius:${r(10)};background:var(--sw-page);overflow:hidden;position:relative}
.card:hover{border-color:var(--sw-accent)}
.card img,.ph{display:block;width:100%;aspect-ratio:3/4;object-fit:cover;background:var(--sw-surface)}
.card span{display:block;padding:0 8px}
.name{padding-top:6px!important;font-size:13px;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.price{padding-bottom:8px!important;font-weight:600}
.price s{color:var(--sw-muted);font-weight:400;font-size:12px}
.badge{position:absolute;top:6px;left:6px;padding:2px 6px!important;border-radius:${r(8)};background:#b91c1c;color:#fff;font-size:12px;font-weight:700}
.look{padding:10px;border:1px solid var(--sw-border);border-radius:${r(12)};background:var(--sw-surface)}
.look .pic{display:block;width:100%;max-width:300px;height:auto;margin-left:auto;margin-right:auto;border-radius:${r(8)};margin-bottom:8px}
.look .pic.ph{aspect-ratio:3/4;background:linear-gradient(100deg,var(--sw-surface) 30%,var(--sw-page) 50%,var(--sw-surface) 70%) 0/300% 100%;animation:shine 1.4s linear infinite;display:flex;align-items:center;justify-content:center;color:var(--sw-muted)}
@keyframes shine{to{background-position:-150% 0}}
.question{padding:12px;border:1px solid var(--sw-border);border-radius:${r(12)};background:var(--sw-surface)}
.question p{margin:0 0 8px;font-weight:600}
.opts,.chips{display:flex;flex-wrap:wrap;gap:6px}
.opt,.chip{min-height:32px;padding:4px 12px;border:1px solid var(--sw-accent);border-radius:${r(16)};background:var(--sw-page);color:var(--sw-accent)}
.opt:hover,.chip:hover,.opt[aria-pressed=true]{background:var(--sw-accent-hover);border-color:var(--sw-accent-hover);color:#fff}
.opt:disabled{cursor:default;opacity:.7}
.opt[aria-pressed=true]{opacity:1}
.chips{padding:8px 12px 0;background:var(--sw-footer)}
.receipt{display:flex;align-items:center;gap:8px;padding:8px 10px;border-left:4px solid #15803d;border-radius:${r(8)};background:var(--sw-surface)}
.receipt.no{border-left-color:var(--sw-muted)}
.receipt img{width:36px;height:48px;object-fit:cover;border-radius:${r(4)}}
.error{padding:8px 10px;border-left:4px solid #b91c1c;border-radius:${r(8)};background:#fef2f2;color:#7f1d1d}
.stopped{font-style:italic}
.typing{display:flex;gap:4px;padding:4px 0}
.typing i{width:8px;height:8px;border-radius:50%;background:var(--sw-dot);animation:blink 1.2s infinite}
.typing i:nth-child(2){animation-delay:.2s}.typing i:nth-child(3){animation-delay:.4s}
@keyframes blink{50%{opacity:.25}}
@media (prefers-reduced-motion:reduce){*{animation:none!important}}
footer{background:var(--sw-footer);border-top:1px solid var(--sw-border)}
form{display:flex;gap:8px;padding:12px}
input{flex:1;min-width:0;min-height:40px;padding:8px 12px;border:1px solid var(--sw-border);border-radius:${r(20)};background:var(--sw-input);color:var(--sw-text)}
.send,.stop{min-height:40px;padding:0 16px;border:0;border-radius:${r(20)};background:var(--sw-accent);color:#fff;font-weight:600}
.send:hover,.stop:hover{background:var(--sw-accent-hover)}
.send:disabled{opacity:.6;cursor:default}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

const COLOURS: Array<[string, (theme: WidgetPreset) => string]> = [
  ['--sw-button', (t) => t.options.button.color],
  ['--sw-button-hover', (t) => t.options.button.hoverColor],
  ['--sw-button-text', (t) => t.options.button.textColor],
  ['--sw-dot', (t) => t.options.widget.typingDotColor],
  ['--sw-accent', (t) => t.options.widget.accentColor],
  ['--sw-accent-hover', (t) => t.options.widget.accentHoverColor],
  ['--sw-muted', (t) => t.options.widget.mutedTextColor],
  ['--sw-text', (t) => t.options.widget.primaryTextColor],
  ['--sw-page', (t) => t.options.widget.pageColor],
  ['--sw-surface', (t) => t.options.widget.surfaceColor],
  ['--sw-border', (t) => t.options.widget.borderColor],
  ['--sw-input', (t) => t.options.widget.inputColor],
  ['--sw-footer', (t) => t.options.widget.footerColor],
];

/**
 * The theme's colours and roundness as custom properties on the shadow host (inline styles win
 * over the :host defaults). A value that is not a colour is left out, so the default shows instead
 * of a broken (transparent) colour; no theme clears them all.
 */
export function applyTheme(host: HTMLElement, theme: WidgetPreset | null): void {
  for (const colour of COLOURS) {
    const name = colour[0];
    let value: string | undefined;
    try {
      value = theme ? colour[1](theme) : undefined;
    } catch {
      value = undefined;
    }
    if (typeof value === 'string' && CSS_SUPPORTS('color', value)) host.style.setProperty(name, value);
    else host.style.removeProperty(name);
  }
  const roundness = theme?.options?.widget?.roundness;
  if (typeof roundness === 'number' && roundness >= 0 && roundness <= 100) host.style.setProperty('--sw-round', String(roundness / 100));
  else host.style.removeProperty('--sw-round');
}

const CSS_SUPPORTS = (property: string, value: string): boolean => typeof globalThis.CSS?.supports === 'function' && globalThis.CSS.supports(property, value);
