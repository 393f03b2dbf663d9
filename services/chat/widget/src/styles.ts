// Theming: the shop sets these CSS custom properties on the page (they inherit into the Shadow DOM),
// or data-color on the script tag for the accent:
//   --chatsearch-accent        launcher, header and the shopper's messages (default: data-color or #1f5fbf)
//   --chatsearch-accent-text   text on the accent (default white)
//   --chatsearch-background    the panel (default white)
//   --chatsearch-text          the panel's text (default #1b1b1f)
//   --chatsearch-bubble        the assistant's messages (default #f0f2f5)
//   --chatsearch-font          font family (default the system's)
//   --chatsearch-radius        corner radius (default 12px)
//   --chatsearch-z-index       stacking order (default 2147483000)

/** The variables with their defaults; `color` was checked with CSS.supports before it gets here. */
export const themeCss = (color: string | undefined) => `:host{
--a:var(--chatsearch-accent,${color ?? '#1f5fbf'});--at:var(--chatsearch-accent-text,#fff);
--bg:var(--chatsearch-background,#fff);--fg:var(--chatsearch-text,#1b1b1f);--bu:var(--chatsearch-bubble,#f0f2f5);
--r:var(--chatsearch-radius,12px);--z:var(--chatsearch-z-index,2147483000);
font-family:var(--chatsearch-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);font-size:15px;line-height:1.45}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
button{font:inherit;cursor:pointer}
:focus-visible{outline:3px solid var(--a);outline-offset:2px}`

export const launcherCss = `.l{position:fixed;bottom:20px;right:20px;z-index:var(--z);width:56px;height:56px;border-radius:50%;border:0;
background:var(--a);color:var(--at);box-shadow:0 4px 14px rgba(0,0,0,.25);display:grid;place-items:center}
:host([data-position=left]) .l{right:auto;left:20px}
.l svg{width:28px;height:28px}.l[aria-expanded=true]{display:none}
.l[aria-busy=true]{opacity:.7}`

/** Where the panel covers the whole screen instead of floating over the page (panel.ts keeps the focus in it there). */
export const FULL_SCREEN = '(max-width:480px)'

export const panelCss = `.p{position:fixed;bottom:20px;right:20px;z-index:var(--z);width:380px;max-width:calc(100vw - 40px);height:600px;max-height:calc(100vh - 40px);
display:flex;flex-direction:column;background:var(--bg);color:var(--fg);border-radius:var(--r);box-shadow:0 8px 30px rgba(0,0,0,.25);overflow:hidden}
:host([data-position=left]) .p{right:auto;left:20px}
.p[hidden]{display:none}
:host([data-preview]){display:flex;justify-content:flex-end}:host([data-preview][data-position=left]){justify-content:flex-start}
:host([data-preview]) .p{position:relative;inset:auto;bottom:auto;right:auto;left:auto;max-width:100%;height:520px;box-shadow:0 2px 10px rgba(0,0,0,.2)}
header{display:flex;align-items:center;justify-content:space-between;padding:12px 16px;background:var(--a);color:var(--at)}
h2{margin:0;font-size:17px}
.x{background:none;border:0;color:inherit;font-size:24px;line-height:1;padding:4px 8px}
.log{flex:1;overflow-y:auto;padding:12px 16px;display:flex;flex-direction:column;gap:10px}
.m{max-width:85%;padding:8px 12px;border-radius:var(--r);white-space:pre-wrap;overflow-wrap:anywhere}
.user{align-self:flex-end;background:var(--a);color:var(--at)}
.assistant,.team{align-self:flex-start;background:var(--bu)}
.team{border-left:4px solid var(--a)}
.who{display:block;font-size:12px;font-weight:600;opacity:.75}
.m a{color:inherit}
.src{margin:6px 0 0;padding-left:18px;font-size:13px}
.rate{display:flex;gap:6px;align-items:center;margin-top:6px;font-size:13px}
.rate button{border:1px solid rgba(0,0,0,.2);background:var(--bg);color:inherit;border-radius:6px;padding:3px 8px;line-height:0}
.rate button[aria-pressed=true]{background:var(--a);color:var(--at);border-color:var(--a)}
.st{margin:0;padding:8px 16px;font-size:13px;background:var(--bu)}
.st:empty{display:none}
.st.err{background:#fdecea;color:#8a1c12}
form{display:flex;gap:8px;padding:10px 12px;border-top:1px solid rgba(0,0,0,.1)}
textarea{flex:1;resize:none;font:inherit;padding:8px;border:1px solid rgba(0,0,0,.25);border-radius:8px;background:var(--bg);color:var(--fg)}
.s{border:0;border-radius:8px;padding:0 14px;background:var(--a);color:var(--at)}
.s:disabled{opacity:.5;cursor:default}
.dots::after{content:"…";animation:b 1s infinite}
@keyframes b{50%{opacity:.2}}
@media ${FULL_SCREEN}{.p{inset:0;width:auto;height:auto;max-width:none;max-height:none;border-radius:0}}
@media (prefers-reduced-motion:reduce){.dots::after{animation:none}}`

/**
 * Styles a shadow root: a constructed style sheet where the browser has them, which a page's
 * Content-Security-Policy (style-src without 'unsafe-inline') does not block, else a <style>.
 */
export function style (root: ShadowRoot, css: string): void {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(css)
    root.adoptedStyleSheets = [sheet]
    return
  }
  const node = document.createElement('style')
  node.textContent = css
  root.append(node)
}
