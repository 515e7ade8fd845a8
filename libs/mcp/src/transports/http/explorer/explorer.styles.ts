/** The page's stylesheet, allowed by hash; the page sets no `style` attribute (the policy would refuse it). */
export const EXPLORER_STYLES = String.raw`
:root {
  --bg: #f6f7f9; --panel: #fff; --ink: #1d2330; --muted: #5f6b7a; --line: #dde1e7; --accent: #2f5bd3;
  --ok: #17804a; --ok-bg: #e8f6ee; --bad: #b42318; --bad-bg: #fdecea; --wait: #a15c00; --wait-bg: #fff4e0;
  color-scheme: light;
}
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; color: var(--ink); background: var(--bg); }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 12px 24px; padding: 12px 20px; background: var(--panel); border-bottom: 1px solid var(--line); }
header h1 { margin: 0; font-size: 18px; }
header .meta { color: var(--muted); font-size: 12px; }
#auth { display: flex; gap: 8px; align-items: center; margin-left: auto; }
#auth input { width: 260px; }
#auth select { min-width: 0; }
#connection { font-size: 12px; color: var(--muted); min-width: 160px; }
#connection.connected { color: var(--ok); }
#connection.failed { color: var(--bad); }
.layout { display: grid; grid-template-columns: 280px minmax(0, 1fr); min-height: calc(100vh - 58px); }
nav { border-right: 1px solid var(--line); background: var(--panel); padding: 12px 0; overflow-y: auto; }
nav h2 { margin: 12px 16px 4px; font-size: 11px; letter-spacing: .06em; text-transform: uppercase; color: var(--muted); }
nav ul { list-style: none; margin: 0; padding: 0; }
nav li button { display: block; width: 100%; text-align: left; border: 0; background: none; padding: 6px 16px; cursor: pointer; font: inherit; color: inherit; }
nav li button:hover { background: #eef2fb; }
nav li button[aria-current="true"] { background: #e3eafc; box-shadow: inset 3px 0 var(--accent); }
nav li button small { display: block; color: var(--muted); font-size: 12px; }
nav .empty { padding: 4px 16px; color: var(--muted); font-size: 12px; }
main { padding: 20px 28px; min-width: 0; }
main > .placeholder { color: var(--muted); }
section.item h2 { margin: 0 0 4px; font-size: 20px; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
section.item .description { margin: 0 0 12px; color: var(--muted); max-width: 760px; }
.badges { display: flex; gap: 6px; flex-wrap: wrap; margin-bottom: 12px; }
.badge { font-size: 11px; padding: 1px 8px; border-radius: 10px; background: #eef1f5; color: var(--muted); }
form.call { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 16px; max-width: 760px; }
.field { margin-bottom: 14px; }
.field label { display: block; font-weight: 600; margin-bottom: 2px; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.field label .type { font-weight: 400; color: var(--muted); font-size: 12px; margin-left: 6px; font-family: system-ui, sans-serif; }
.field .req { color: var(--bad); margin-left: 2px; }
.field .hint { color: var(--muted); font-size: 12px; margin: 2px 0 4px; }
.field .note { color: var(--bad); font-size: 12px; margin: 4px 0 0; }
.field.invalid input, .field.invalid select, .field.invalid textarea { border-color: var(--bad); background: var(--bad-bg); }
.field.invalid label { color: var(--bad); }
input, select, textarea, button { font: inherit; }
input[type="text"], input[type="number"], input[type="password"], select, textarea { padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; background: #fff; min-width: 240px; }
textarea { width: 100%; min-height: 80px; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
input:invalid { border-color: var(--wait); }
button.primary { background: var(--accent); color: #fff; border: 0; border-radius: 6px; padding: 7px 16px; cursor: pointer; }
button.primary:disabled { opacity: .6; cursor: progress; }
button.secondary { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; cursor: pointer; }
.app { margin-top: 16px; max-width: 760px; }
.app.border { border: 1px solid var(--line); border-radius: 12px; background: var(--panel); overflow: hidden; }
.app .note { color: var(--bad); font-size: 12px; }
iframe.app-frame { display: block; width: 100%; border: 0; background: transparent; }
.envelope { margin-top: 16px; max-width: 760px; border: 1px solid var(--line); border-radius: 8px; background: var(--panel); overflow: hidden; }
.envelope .head { display: flex; gap: 10px; align-items: center; padding: 8px 12px; font-weight: 600; }
.envelope[data-status="success"] .head { background: var(--ok-bg); color: var(--ok); }
.envelope[data-status="error"] .head, .envelope[data-status="protocol-error"] .head { background: var(--bad-bg); color: var(--bad); }
.envelope[data-status="pending"] .head { background: var(--wait-bg); color: var(--wait); }
.envelope .head .code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.envelope .head .took { margin-left: auto; font-weight: 400; font-size: 12px; color: var(--muted); }
.envelope .message { padding: 8px 12px 0; margin: 0; }
.envelope .progress { padding: 8px 12px 0; display: flex; gap: 10px; align-items: center; }
.envelope progress { width: 240px; }
.envelope pre { margin: 0; padding: 10px 12px; font-size: 12.5px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.envelope details { border-top: 1px solid var(--line); }
.envelope summary { cursor: pointer; padding: 6px 12px; color: var(--muted); font-size: 12px; }
.envelope ol.polls { margin: 0; padding: 6px 12px 6px 32px; color: var(--muted); font-size: 12px; }
`;
