/**
 * The weather card: an MCP App (extension `io.modelcontextprotocol/ui`) for `get_weather` and `get_forecast`.
 * Self-contained (HTML, CSS and script inline; its own CSP forbids any network use). The script is a small
 * hand-written client of the app side of the protocol: JSON-RPC 2.0 over `postMessage` with the host window,
 * `ui/initialize` → `ui/notifications/initialized`, then `ui/notifications/tool-input` / `tool-result` /
 * `tool-cancelled` / `host-context-changed`, `ui/resource-teardown` and `ping`, and `ui/notifications/size-changed`
 * whenever the card's size changes. Without data it says so in words.
 */
export const WEATHER_CARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Weather</title>
<style>
  :root { color-scheme: light dark; --bg: #f4f7fb; --card: #ffffff; --ink: #17212b; --muted: #5d6b7a; --accent: #2f6fdf; --line: #e2e8f0; }
  [data-theme="dark"] { --bg: #10151c; --card: #1a222d; --ink: #e8eef5; --muted: #9aa8b8; --accent: #7aa7ff; --line: #2a3442; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--ink); }
  main { padding: 16px; max-width: 560px; }
  .card { background: var(--card); border: 1px solid var(--line); border-radius: 14px; padding: 18px 20px; }
  .place { display: flex; align-items: baseline; gap: 8px; flex-wrap: wrap; }
  .city { font-size: 22px; font-weight: 650; margin: 0; }
  .zh, .country, .date { color: var(--muted); }
  .now { display: flex; align-items: center; gap: 16px; margin: 12px 0 6px; }
  .icon { display: inline-flex; line-height: 0; }
  .temp { font-size: 46px; font-weight: 700; letter-spacing: -1px; }
  .condition { font-size: 17px; text-transform: capitalize; }
  .facts { display: flex; flex-wrap: wrap; gap: 6px 18px; color: var(--muted); margin: 8px 0 0; padding: 0; list-style: none; }
  .facts b { color: var(--ink); font-weight: 600; }
  .days { display: grid; grid-template-columns: repeat(auto-fill, minmax(80px, 1fr)); gap: 8px; margin: 14px 0 0; padding: 0; list-style: none; }
  .day { border: 1px solid var(--line); border-radius: 10px; padding: 8px; text-align: center; }
  .day .d { color: var(--muted); font-size: 13px; }
  .day .hl { font-weight: 600; font-size: 13px; white-space: nowrap; }
  .message { color: var(--muted); margin: 0; }
  .error { color: #c0392b; }
</style>
</head>
<body>
<main><div class="card" id="card"><p class="message" id="status">Waiting for weather data…</p></div></main>
<script>
(() => {
  'use strict';
  const PROTOCOL_VERSION = '2026-01-26';
  // Inline SVG icons (no emoji font needed, nothing loaded): one per condition of the weather model.
  const SUN = '<circle cx="32" cy="32" r="11" fill="#f5b301"/><g stroke="#f5b301" stroke-width="4" stroke-linecap="round"><path d="M32 8v7M32 49v7M8 32h7M49 32h7M15 15l5 5M44 44l5 5M15 49l5-5M44 20l5-5"/></g>';
  const CLOUD = (fill) => '<path d="M20 50h26a11 11 0 0 0 0-22 15 15 0 0 0-28.5 4A9 9 0 0 0 20 50z" fill="' + fill + '"/>';
  const ICONS = {
    sunny: SUN,
    partly_cloudy: '<g transform="translate(-6 -8) scale(.8)">' + SUN + '</g>' + CLOUD('#c9d3df'),
    cloudy: CLOUD('#aab6c4'),
    rain: '<g transform="translate(0 -8)">' + CLOUD('#8c9aab') + '</g><g stroke="#2f6fdf" stroke-width="3.5" stroke-linecap="round"><path d="M22 48l-3 8M33 48l-3 8M44 48l-3 8"/></g>',
    thunderstorm: '<g transform="translate(0 -8)">' + CLOUD('#6f7d8f') + '</g><path d="M34 40l-8 12h7l-4 10 11-14h-7l4-8z" fill="#f5b301"/>',
    snow: '<g transform="translate(0 -8)">' + CLOUD('#b9c4d1') + '</g><g fill="#6fa8dc"><circle cx="22" cy="52" r="3"/><circle cx="33" cy="57" r="3"/><circle cx="44" cy="52" r="3"/></g>',
    fog: '<g stroke="#9aa8b8" stroke-width="4" stroke-linecap="round"><path d="M12 24h40M8 34h44M14 44h38"/></g>',
    windy: '<g fill="none" stroke="#7f8ea3" stroke-width="4" stroke-linecap="round"><path d="M8 26h30a7 7 0 1 0-7-7M8 38h40a7 7 0 1 1-7 7M8 32h20"/></g>',
  };
  const UNKNOWN = '<circle cx="32" cy="32" r="14" fill="none" stroke="#9aa8b8" stroke-width="4"/>';
  const card = document.getElementById('card');
  let nextId = 1;
  const pending = new Map();

  // --- JSON-RPC over postMessage with the host (window.parent) ---
  const post = (message) => window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    post({ id, method, params });
  });
  const notify = (method, params) => post(params === undefined ? { method } : { method, params });

  const handlers = {
    'ui/notifications/tool-input': (params) => { if (!rendered) showMessage('Loading weather for ' + ((params && params.arguments && params.arguments.city) || 'the city') + '…'); },
    'ui/notifications/tool-input-partial': () => {},
    'ui/notifications/tool-result': (params) => render(params),
    'ui/notifications/tool-cancelled': (params) => showMessage('The weather request was cancelled' + (params && params.reason ? ' (' + params.reason + ')' : '') + '.'),
    'ui/notifications/host-context-changed': (params) => applyContext(params),
    'ui/resource-teardown': () => ({}),
    ping: () => ({}),
  };

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return; // only the host speaks to us
    const message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (message.method === undefined) {
      const call = pending.get(message.id);
      if (!call) return;
      pending.delete(message.id);
      if (message.error) call.reject(message.error); else call.resolve(message.result);
      return;
    }
    const handler = handlers[message.method];
    if (message.id === undefined) { if (handler) handler(message.params); return; }
    if (!handler) { post({ id: message.id, error: { code: -32601, message: 'Method not found: ' + message.method } }); return; }
    try { post({ id: message.id, result: handler(message.params) || {} }); }
    catch (error) { post({ id: message.id, error: { code: -32603, message: String(error && error.message || error) } }); }
  });

  // --- Rendering ---
  let rendered = false;
  const el = (tag, className, text) => { const node = document.createElement(tag); if (className) node.className = className; if (text !== undefined) node.textContent = String(text); return node; };
  const iconOf = (condition, size) => {
    const icon = document.createElement('span');
    icon.className = 'icon';
    icon.setAttribute('role', 'img');
    icon.setAttribute('aria-label', String(condition || 'unknown').replace(/_/g, ' '));
    icon.innerHTML = '<svg width="' + size + '" height="' + size + '" viewBox="0 0 64 64" aria-hidden="true">' + (Object.hasOwn(ICONS, condition) ? ICONS[condition] : UNKNOWN) + '</svg>';
    return icon;
  };
  const unitOf = (unit) => unit === 'fahrenheit' ? '°F' : '°C';
  const round = (value) => typeof value === 'number' ? Math.round(value * 10) / 10 : value;
  function showMessage(text, isError) {
    card.replaceChildren(el('p', 'message' + (isError ? ' error' : ''), text));
    card.firstChild.id = 'status';
  }
  function dataOf(result) {
    let body = result && result.structuredContent;
    if (!body && result && Array.isArray(result.content)) {
      const text = result.content.find((item) => item && item.type === 'text');
      try { body = text && JSON.parse(text.text); } catch { body = undefined; }
    }
    if (body && body.status === 'error') return { error: (body.error && body.error.message) || 'The weather service reported an error.' };
    return body && typeof body === 'object' && 'data' in body ? body.data : body;
  }
  function placeOf(city) {
    const place = el('div', 'place');
    place.append(el('h1', 'city', city.name || city));
    if (city.nameZh) place.append(el('span', 'zh', city.nameZh));
    if (city.country) place.append(el('span', 'country', city.country));
    return place;
  }
  function render(result) {
    const data = dataOf(result);
    if (result && result.isError && !(data && data.city)) { showMessage((data && data.error) || 'The weather request failed.', true); return; }
    if (!data || data.error) { showMessage(data && data.error ? data.error : 'No weather data in this result.', Boolean(data && data.error)); return; }
    if (!data.city) { showMessage('No weather data in this result.'); return; }
    rendered = true;
    const today = Array.isArray(data.days) ? data.days[0] : data;
    const unit = unitOf(data.unit);
    const children = [placeOf(data.city)];
    if (today) {
      const now = el('div', 'now');
      now.append(iconOf(today.condition, 56));
      const temp = el('span', 'temp', round(today.temperature) + unit); temp.dataset.testid = 'temperature';
      const text = el('div');
      text.append(el('div', 'condition', String(today.condition || '').replace(/_/g, ' ')), el('div', 'date', today.date || ''));
      now.append(temp, text);
      children.push(now);
      const facts = el('ul', 'facts');
      const fact = (label, value) => { if (value === undefined) return; const item = el('li'); item.append(label + ' ', el('b', '', value)); facts.append(item); };
      fact('High', today.high === undefined ? undefined : round(today.high) + unit);
      fact('Low', today.low === undefined ? undefined : round(today.low) + unit);
      fact('Humidity', today.humidityPercent === undefined ? undefined : today.humidityPercent + '%');
      fact('Wind', today.windKph === undefined ? undefined : today.windKph + ' km/h');
      fact('Rain', today.precipitationMm === undefined ? undefined : today.precipitationMm + ' mm');
      children.push(facts);
    }
    if (Array.isArray(data.days) && data.days.length > 1) {
      const days = el('ul', 'days');
      days.id = 'days';
      for (const day of data.days) {
        const item = el('li', 'day');
        const date = new Date(day.date + 'T00:00:00Z');
        item.append(
          el('div', 'd', isNaN(date) ? day.date : date.toLocaleDateString('en', { weekday: 'short', day: 'numeric', timeZone: 'UTC' })),
          iconOf(day.condition, 30),
          el('div', 'hl', round(day.high) + '° / ' + round(day.low) + '°'),
        );
        item.title = String(day.condition || '').replace(/_/g, ' ');
        days.append(item);
      }
      children.push(days);
    }
    card.replaceChildren(...children);
  }
  function applyContext(context) {
    if (context && (context.theme === 'dark' || context.theme === 'light')) document.documentElement.dataset.theme = context.theme;
  }

  // --- Size reports, so the host can fit the iframe ---
  let lastSize = '';
  const reportSize = () => {
    const width = Math.ceil(document.documentElement.scrollWidth), height = Math.ceil(document.documentElement.scrollHeight);
    if (width + 'x' + height === lastSize) return;
    lastSize = width + 'x' + height;
    notify('ui/notifications/size-changed', { width, height });
  };

  // --- Handshake ---
  if (window.parent === window) { showMessage('Open this card from an MCP host to see the weather.'); return; }
  request('ui/initialize', { appInfo: { name: 'weather-card', version: '1.0.0' }, appCapabilities: {}, protocolVersion: PROTOCOL_VERSION })
    .then((result) => {
      applyContext(result && result.hostContext);
      notify('ui/notifications/initialized');
      if (typeof ResizeObserver === 'function') new ResizeObserver(reportSize).observe(document.body);
      reportSize();
    })
    .catch(() => showMessage('The host did not accept this weather card.', true));
  setTimeout(() => { if (!rendered && document.getElementById('status')?.textContent === 'Waiting for weather data…') showMessage('No weather data yet: call get_weather or get_forecast to fill this card.'); }, 5000);
})();
</script>
</body>
</html>
`;
