// No destructuring anywhere in web/storefront: esbuild cannot lower it for the Safari 14 target
// of infra/web/bundles.ts and the build fails.
// A tiny element builder. Every piece of server data goes in as text (textContent or an attribute
// value), never as HTML: product names and descriptions come from merchants' feeds.

type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/**
 * `h('button', { class: 'x', onclick: fn, 'aria-label': '…' }, 'text', child)`.
 * `on*` keys are listeners; `true` is an empty attribute; `false`/null/undefined leave it out.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const name of Object.keys(attrs)) {
    const value = attrs[name];
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replaces an element's children. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** Text read only by screen readers (the `.sr-only` class is in styles.ts). */
export const srOnly = (text: string) => h('span', { class: 'sr-only' }, text);

/** A photo that failed (gone, or the image route's rate limit) leaves its placeholder, not a broken icon. */
export const hideBroken = (event: Event) => (event.currentTarget as HTMLElement).classList.add('broken');
