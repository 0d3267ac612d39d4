// The embeddable widget: `window.StylistWidget.mount(options)`, or one script tag that mounts by
// itself:
//   <script src="https://stylist.example.com/widget.js" data-key="sgpt-pk-…" data-theme-id="…"
//           data-dataset-ids="a,b" data-country="CA" data-storage="local"></script>
// With `data-manual` the page calls mount itself. `window.StylistCart`, when the page defines it,
// is the cart adapter of an auto-mounted widget.
import type { CartAdapter, StorageMode, WidgetHandle, WidgetOptions } from './types.js';
import { Widget } from './widget.js';

export type { CartAdapter, CartSnapshot, ShownProduct, WidgetHandle, WidgetOptions } from './types.js';

// document.currentScript is only set while this script first runs: read it now, not at mount.
const script = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;
const scriptOrigin = (() => {
  try {
    return script?.src ? new URL(script.src, location.href).origin : location.origin;
  } catch {
    return location.origin;
  }
})();

function mount(options: WidgetOptions): WidgetHandle {
  if (!options || typeof options.key !== 'string' || !options.key) throw new TypeError('StylistWidget.mount: `key` (a public key) is required.');
  const widget = new Widget({ ...options, baseUrl: options.baseUrl ?? scriptOrigin });
  return {
    open: () => widget.open(),
    close: () => widget.close(),
    send: (text) => widget.send(text),
    setPage: (page) => widget.setPage(page),
    setTheme: (themeId) => widget.setTheme(themeId),
    destroy: () => widget.destroy(),
  };
}

interface StylistGlobal {
  mount: typeof mount;
  /** The auto-mounted widget's handle, once mounted. */
  widget?: WidgetHandle;
}

declare global {
  interface Window {
    StylistWidget?: StylistGlobal;
    StylistCart?: CartAdapter;
  }
}

const api: StylistGlobal = { mount };
window.StylistWidget = api;

const STORAGE_MODES: readonly string[] = ['memory', 'session', 'local'];

function autoMount(): void {
  const data = script?.dataset;
  if (!data?.key || (data.manual !== undefined && data.manual !== 'false')) return;
  const storage = data.storage && STORAGE_MODES.includes(data.storage) ? (data.storage as StorageMode) : undefined;
  const datasetIds = data.datasetIds?.split(',').map((id) => id.trim()).filter(Boolean);
  const run = () => {
    api.widget = mount({
      key: data.key!,
      ...(data.themeId ? { themeId: data.themeId } : {}),
      ...(datasetIds?.length ? { datasetIds } : {}),
      ...(data.country ? { country: data.country } : {}),
      ...(storage ? { storage } : {}),
      ...(window.StylistCart ? { cart: window.StylistCart } : {}),
    });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
}

autoMount();
