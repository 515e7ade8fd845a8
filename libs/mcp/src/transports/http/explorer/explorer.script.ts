/**
 * The explorer page's script: a small MCP client of the 2025-11-25 revision over Streamable HTTP, written for the
 * browser. It opens a session (`initialize`, `notifications/initialized`), lists tools, resources and prompts, builds
 * a form per tool from its `inputSchema`, calls through the endpoint with the credentials typed into the page and
 * renders the envelope, polling `get_job_status` while a job is pending. As an MCP Apps host (extension
 * `io.modelcontextprotocol/ui`) it renders a tool's `_meta.ui.resourceUri` app beside the result, in a sandboxed
 * iframe of the sandbox proxy `<explorer>/app-frame`, and speaks the host side of the postMessage protocol. Inlined in the page under a hash the
 * Content-Security-Policy allows; it reads its settings from the page's JSON data block and builds the DOM with
 * `createElement`/`textContent` only, so nothing a server returns is ever parsed as markup.
 */
export const EXPLORER_SCRIPT = String.raw`
'use strict';
(function () {
  var config = JSON.parse(document.getElementById('mcp-explorer-config').textContent);
  // Relative to the page, so a global prefix (app.setGlobalPrefix) is followed; a trailing slash is ignored.
  var here = location.origin + location.pathname.replace(/\/+$/, '');
  var endpoint = new URL(config.endpoint, here).href;
  var appFrame = new URL('app-frame', here + '/').href;
  var UI_EXTENSION = 'io.modelcontextprotocol/ui';
  var UI_MIME_TYPE = 'text/html;profile=mcp-app';
  var UI_PROTOCOL_VERSION = '2026-01-26';
  var POLL_MS = 400;
  var session = { id: null, version: null, capabilities: {} };
  var nextId = 1;
  var panels = new Map();

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) for (var key in attrs) {
      var value = attrs[key];
      if (value === undefined || value === null || value === false) continue;
      if (key === 'text') node.textContent = value;
      else if (key === 'className') node.className = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    (children || []).forEach(function (child) { if (child) node.append(child); });
    return node;
  }
  function $(id) { return document.getElementById(id); }
  function pretty(value) { return JSON.stringify(value, null, 2); }

  // ---- transport -------------------------------------------------------------------------------------------
  function credentialHeaders() {
    var kind = $('auth-kind').value;
    var value = $('auth-value').value.trim();
    if (!value) return {};
    return kind === 'apikey' ? { 'X-API-Key': value } : { Authorization: 'Bearer ' + value };
  }

  function headers() {
    var result = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    if (session.id) result['Mcp-Session-Id'] = session.id;
    if (session.version) result['MCP-Protocol-Version'] = session.version;
    return Object.assign(result, credentialHeaders());
  }

  /** The JSON-RPC messages of an answer: one JSON body, or the data of each SSE event. */
  function messagesOf(contentType, text) {
    if (contentType.indexOf('text/event-stream') === -1) {
      try { return text ? [JSON.parse(text)] : []; } catch (error) { return []; }
    }
    var messages = [];
    text.split(/\r?\n\r?\n/).forEach(function (block) {
      var data = block.split(/\r?\n/).filter(function (line) { return line.indexOf('data:') === 0; })
        .map(function (line) { return line.slice(5).replace(/^ /, ''); }).join('\n');
      if (data) try { messages.push(JSON.parse(data)); } catch (error) { /* a keep-alive or a partial event */ }
    });
    return messages;
  }

  async function send(message) {
    var response = await fetch(endpoint, { method: 'POST', headers: headers(), body: JSON.stringify(message), cache: 'no-store' });
    var text = await response.text();
    return { status: response.status, headers: response.headers, messages: messagesOf(response.headers.get('content-type') || '', text), text: text };
  }

  /** One request; a session the server forgot (404) is reopened once, as the spec tells clients to. */
  async function request(method, params, reopened) {
    var id = nextId++;
    var answer = await send({ jsonrpc: '2.0', id: id, method: method, params: params || {} });
    if (answer.status === 404 && session.id && !reopened) {
      await openSession();
      return request(method, params, true);
    }
    var reply = answer.messages.filter(function (message) { return message && message.id === id; })[0];
    if (reply) return { status: answer.status, reply: reply, headers: answer.headers };
    var failure = answer.messages[0] && answer.messages[0].error;
    throw httpError(answer.status, failure ? failure.message : answer.text);
  }

  function httpError(status, detail) {
    var hint = status === 401 ? ' (this server needs credentials: enter a Bearer token or an API key above)'
      : status === 403 ? ' (refused: missing scope, or this page\'s origin is not in allowedOrigins)' : '';
    var error = new Error('HTTP ' + status + ': ' + String(detail || '').slice(0, 300) + hint);
    error.status = status;
    return error;
  }

  async function openSession() {
    session = { id: null, version: null, capabilities: {} };
    var answer = await send({ jsonrpc: '2.0', id: nextId++, method: 'initialize', params: {
      protocolVersion: config.protocolVersion,
      // The page is an MCP Apps host: it renders ui:// apps (and so also lists app-only tools).
      capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [UI_MIME_TYPE] } } },
      clientInfo: { name: 'nest-mcp-explorer', version: config.version },
    } });
    var reply = answer.messages[0];
    if (answer.status !== 200 || !reply || !reply.result) {
      throw httpError(answer.status, reply && reply.error ? reply.error.message : answer.text);
    }
    session.id = answer.headers.get('mcp-session-id');
    session.version = reply.result.protocolVersion;
    session.capabilities = reply.result.capabilities || {};
    session.serverInfo = reply.result.serverInfo || {};
    await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** Every page of a list method (tools/list, resources/list...). */
  async function listAll(method, key) {
    var items = [];
    var cursor;
    do {
      var answer = await request(method, cursor ? { cursor: cursor } : {});
      if (answer.reply.error) throw new Error(method + ': ' + answer.reply.error.message);
      items = items.concat(answer.reply.result[key] || []);
      cursor = answer.reply.result.nextCursor;
    } while (cursor);
    return items;
  }

  // ---- catalogue -------------------------------------------------------------------------------------------
  async function connect() {
    var status = $('connection');
    status.className = '';
    status.textContent = 'Connecting…';
    panels.forEach(function (panel) { panel.stopped = true; });
    panels.clear();
    ['tool-list', 'resource-list', 'prompt-list'].forEach(function (id) { $(id).replaceChildren(); });
    $('detail').replaceChildren(el('p', { className: 'placeholder', text: 'Pick a tool, resource or prompt on the left.' }));
    try {
      await openSession();
      var info = session.serverInfo;
      status.className = 'connected';
      status.textContent = 'Connected to ' + (info.title || info.name || 'server') + ' ' + (info.version || '') + ' · ' + session.version
        + (session.id ? ' · session ' + session.id.slice(0, 8) + '…' : '');
      var caps = session.capabilities;
      await Promise.all([
        caps.tools ? listAll('tools/list', 'tools').then(showTools) : showNone('tool-list', 'tools'),
        caps.resources ? Promise.all([listAll('resources/list', 'resources'), listAll('resources/templates/list', 'resourceTemplates')
          .catch(function () { return []; })]).then(function (lists) { showResources(lists[0], lists[1]); }) : showNone('resource-list', 'resources'),
        caps.prompts ? listAll('prompts/list', 'prompts').then(showPrompts) : showNone('prompt-list', 'prompts'),
      ]);
      document.body.setAttribute('data-ready', 'true');
    } catch (error) {
      status.className = 'failed';
      status.textContent = error.message;
      document.body.setAttribute('data-ready', 'failed');
    }
  }

  function showNone(listId, what) {
    $(listId).append(el('li', { className: 'empty', text: 'No ' + what + ' on this server' }));
  }

  function addEntry(listId, kind, key, label, sub, build) {
    var button = el('button', { type: 'button', 'data-kind': kind, 'data-name': key }, [document.createTextNode(label), sub ? el('small', { text: sub }) : null]);
    button.addEventListener('click', function () { select(kind + ':' + key, build); });
    $(listId).append(el('li', null, [button]));
  }

  function select(key, build) {
    document.querySelectorAll('nav button[aria-current]').forEach(function (button) { button.removeAttribute('aria-current'); });
    var parts = key.split(':');
    var button = document.querySelector('nav button[data-kind="' + parts[0] + '"][data-name="' + CSS.escape(parts.slice(1).join(':')) + '"]');
    if (button) button.setAttribute('aria-current', 'true');
    if (!panels.has(key)) panels.set(key, { node: build(), stopped: false });
    panels.forEach(function (panel, other) { panel.node.hidden = other !== key; });
    var main = $('detail');
    if (!main.contains(panels.get(key).node)) {
      main.querySelectorAll('.placeholder').forEach(function (node) { node.remove(); });
      main.append(panels.get(key).node);
    }
  }

  function showTools(tools) {
    $('tool-count').textContent = String(tools.length);
    if (!tools.length) return showNone('tool-list', 'tools');
    tools.forEach(function (tool) {
      addEntry('tool-list', 'tool', tool.name, tool.name, tool.title, function () { return toolPanel(tool); });
    });
  }

  function showResources(resources, templates) {
    $('resource-count').textContent = String(resources.length + templates.length);
    if (!resources.length && !templates.length) return showNone('resource-list', 'resources');
    resources.forEach(function (resource) {
      addEntry('resource-list', 'resource', resource.uri, resource.name || resource.uri, resource.uri, function () {
        return readPanel(resource, resource.uri, false);
      });
    });
    templates.forEach(function (template) {
      addEntry('resource-list', 'template', template.uriTemplate, template.name || template.uriTemplate, template.uriTemplate, function () {
        return readPanel(template, template.uriTemplate, true);
      });
    });
  }

  function showPrompts(prompts) {
    $('prompt-count').textContent = String(prompts.length);
    if (!prompts.length) return showNone('prompt-list', 'prompts');
    prompts.forEach(function (prompt) {
      addEntry('prompt-list', 'prompt', prompt.name, prompt.name, prompt.title, function () { return promptPanel(prompt); });
    });
  }

  // ---- forms from JSON Schema ------------------------------------------------------------------------------
  /** The one type a property's field edits: 'null' aside; several types, anyOf and oneOf fall back to JSON. */
  function kindOf(schema) {
    if (Array.isArray(schema.enum) && schema.enum.length) return 'enum';
    if ('const' in schema) return 'enum';
    var types = Array.isArray(schema.type) ? schema.type.filter(function (type) { return type !== 'null'; }) : [schema.type];
    if (types.length !== 1) return 'json';
    return ({ string: 'string', number: 'number', integer: 'integer', boolean: 'boolean', array: 'json', object: 'json' })[types[0]] || 'json';
  }

  function typeLabel(schema) {
    var type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type || 'any';
    var bounds = [];
    if (schema.minLength !== undefined) bounds.push('≥ ' + schema.minLength + ' chars');
    if (schema.maxLength !== undefined) bounds.push('≤ ' + schema.maxLength + ' chars');
    if (schema.minimum !== undefined) bounds.push('≥ ' + schema.minimum);
    if (schema.exclusiveMinimum !== undefined) bounds.push('> ' + schema.exclusiveMinimum);
    if (schema.maximum !== undefined) bounds.push('≤ ' + schema.maximum);
    if (schema.exclusiveMaximum !== undefined) bounds.push('< ' + schema.exclusiveMaximum);
    return type + (bounds.length ? ' · ' + bounds.join(', ') : '');
  }

  /** A field for one property, with a read() that gives { value } (undefined: leave it out) or { error }. */
  function fieldFor(name, schema, required) {
    var id = 'f-' + Math.random().toString(36).slice(2);
    var kind = kindOf(schema);
    var hasDefault = schema.default !== undefined;
    var input;
    var read;
    if (kind === 'enum') {
      var choices = Array.isArray(schema.enum) ? schema.enum : [schema.const];
      input = el('select', { id: id, name: name });
      if (!required || !hasDefault) input.append(el('option', { value: '', text: required ? 'choose…' : '(not set)' }));
      choices.forEach(function (choice, index) {
        input.append(el('option', { value: String(index), text: typeof choice === 'string' ? choice : JSON.stringify(choice), selected: hasDefault && pretty(choice) === pretty(schema.default) }));
      });
      read = function () { return { value: input.value === '' ? undefined : choices[Number(input.value)] }; };
    } else if (kind === 'boolean' && (required || hasDefault)) {
      input = el('input', { id: id, name: name, type: 'checkbox', checked: schema.default === true });
      read = function () { return { value: input.checked }; };
    } else if (kind === 'boolean') {
      input = el('select', { id: id, name: name }, [el('option', { value: '', text: '(not set)' }), el('option', { value: 'true', text: 'true' }), el('option', { value: 'false', text: 'false' })]);
      read = function () { return { value: input.value === '' ? undefined : input.value === 'true' }; };
    } else if (kind === 'number' || kind === 'integer') {
      input = el('input', { id: id, name: name, type: 'number', min: schema.minimum ?? schema.exclusiveMinimum, max: schema.maximum ?? schema.exclusiveMaximum,
        step: schema.multipleOf ?? (kind === 'integer' ? 1 : 'any'), value: hasDefault ? schema.default : undefined });
      read = function () {
        if (input.value.trim() === '') return { value: undefined };
        var number = Number(input.value);
        return Number.isFinite(number) ? { value: number } : { error: 'not a number' };
      };
    } else if (kind === 'string') {
      var example = Array.isArray(schema.examples) && schema.examples.length ? 'e.g. ' + schema.examples[0] : undefined;
      input = el('input', { id: id, name: name, type: 'text', minlength: schema.minLength, maxlength: schema.maxLength,
        value: hasDefault ? schema.default : undefined, placeholder: example, autocomplete: 'off', spellcheck: 'false' });
      read = function () { return { value: input.value === '' ? undefined : input.value }; };
    } else {
      var shape = schema.type === 'array' || (Array.isArray(schema.type) && schema.type.indexOf('array') !== -1) ? 'array'
        : schema.type === 'object' || (Array.isArray(schema.type) && schema.type.indexOf('object') !== -1) ? 'object' : undefined;
      input = el('textarea', { id: id, name: name, placeholder: shape === 'array' ? '[ ]  (JSON)' : shape === 'object' ? '{ }  (JSON)' : 'JSON', spellcheck: 'false' });
      if (hasDefault) input.value = pretty(schema.default);
      read = function () {
        if (input.value.trim() === '') return { value: undefined };
        var value;
        try { value = JSON.parse(input.value); } catch (error) { return { error: 'is not valid JSON: ' + error.message }; }
        if (shape === 'array' && !Array.isArray(value)) return { error: 'must be a JSON array' };
        if (shape === 'object' && (value === null || typeof value !== 'object' || Array.isArray(value))) return { error: 'must be a JSON object' };
        return { value: value };
      };
    }
    if (required) input.setAttribute('aria-required', 'true');
    var label = el('label', { for: id }, [document.createTextNode(name), required ? el('span', { className: 'req', title: 'required', text: '*' }) : null,
      el('span', { className: 'type', text: typeLabel(schema) + (hasDefault ? ' · default ' + JSON.stringify(schema.default) : '') })]);
    var node = el('div', { className: 'field', 'data-field': name }, [label, schema.description ? el('p', { className: 'hint', text: schema.description }) : null, input]);
    return { name: name, node: node, input: input, read: read };
  }

  function markField(field, message) {
    field.node.classList.add('invalid');
    field.input.setAttribute('aria-invalid', 'true');
    field.node.append(el('p', { className: 'note', text: message }));
  }

  function clearMarks(fields) {
    fields.forEach(function (field) {
      field.node.classList.remove('invalid');
      field.input.removeAttribute('aria-invalid');
      field.node.querySelectorAll('.note').forEach(function (note) { note.remove(); });
    });
  }

  /** The arguments of a form, or null after marking the fields whose input cannot be sent (bad JSON...). */
  function argumentsOf(fields) {
    var args = {};
    var ok = true;
    fields.forEach(function (field) {
      var read = field.read();
      if (read.error) { ok = false; markField(field, field.name + ' ' + read.error); }
      else if (read.value !== undefined) args[field.name] = read.value;
    });
    return ok ? args : null;
  }

  // ---- tools -----------------------------------------------------------------------------------------------
  function toolPanel(tool) {
    var schema = tool.inputSchema || {};
    var required = Array.isArray(schema.required) ? schema.required : [];
    var fields = Object.keys(schema.properties || {}).map(function (name) {
      return fieldFor(name, schema.properties[name] || {}, required.indexOf(name) !== -1);
    });
    var submit = el('button', { type: 'submit', className: 'primary', text: 'Call ' + tool.name });
    var form = el('form', { className: 'call', 'data-tool': tool.name, novalidate: true },
      (fields.length ? fields.map(function (field) { return field.node; }) : [el('p', { className: 'hint', text: 'This tool takes no arguments.' })]).concat([submit]));
    var result = el('div', { className: 'result' });
    var badges = el('div', { className: 'badges' });
    var annotations = tool.annotations || {};
    ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'].forEach(function (hint) {
      if (annotations[hint] === true) badges.append(el('span', { className: 'badge', text: hint.replace(/Hint$/, '') }));
    });
    if (tool.execution && tool.execution.taskSupport) badges.append(el('span', { className: 'badge', text: 'task: ' + tool.execution.taskSupport }));
    var ui = uiOf(tool);
    if (ui) badges.append(el('span', { className: 'badge', text: 'app: ' + ui.resourceUri }));
    if (ui && Array.isArray(ui.visibility) && ui.visibility.indexOf('model') === -1) badges.append(el('span', { className: 'badge', text: 'app only' }));
    var section = el('section', { className: 'item tool', 'data-tool': tool.name }, [
      el('h2', { text: tool.name }), el('p', { className: 'description', text: tool.description || tool.title || '' }), badges, form, result,
    ]);
    var run = 0;
    form.addEventListener('submit', async function (event) {
      // The server is the judge of bounds and formats (the point of the page): only input that cannot be encoded stops here.
      event.preventDefault();
      clearMarks(fields);
      var args = argumentsOf(fields);
      if (!args) return;
      var mine = ++run;
      submit.disabled = true;
      var started = performance.now();
      try {
        var answer = await request('tools/call', { name: tool.name, arguments: args });
        if (mine !== run) return;
        var view = renderAnswer(answer.reply, performance.now() - started);
        result.replaceChildren(view.node);
        var envelope = view.envelope;
        if (ui && !answer.reply.error && !(envelope && envelope.status === 'pending')) {
          result.prepend(appView(tool, ui, args, answer.reply.result, function () { return mine !== run; }));
        }
        if (envelope && envelope.status === 'error' && envelope.error && Array.isArray(envelope.error.fields)) {
          envelope.error.fields.forEach(function (path) {
            var top = String(path).split(/[.[]/)[0];
            var field = fields.filter(function (candidate) { return candidate.name === top; })[0];
            if (field) markField(field, envelope.error.message);
          });
        }
        if (envelope && envelope.status === 'pending' && envelope.data && envelope.data.job_id) await pollJob(envelope.data.job_id, view, function () { return mine !== run; }, started);
      } catch (error) {
        if (mine === run) result.replaceChildren(failureView(error));
      } finally {
        if (mine === run) submit.disabled = false;
      }
    });
    return section;
  }

  /** The tool envelope of a result: structuredContent, or the JSON text of its first content block. */
  function envelopeOf(result) {
    if (result && result.structuredContent && typeof result.structuredContent.status === 'string') return result.structuredContent;
    var first = result && Array.isArray(result.content) ? result.content[0] : undefined;
    if (first && first.type === 'text') {
      try {
        var parsed = JSON.parse(first.text);
        if (parsed && typeof parsed.status === 'string') return parsed;
      } catch (error) { /* plain text content */ }
    }
    return undefined;
  }

  function raw(label, value, open) {
    return el('details', { open: open }, [el('summary', { text: label }), el('pre', { text: pretty(value) })]);
  }

  function renderAnswer(reply, tookMs) {
    var took = el('span', { className: 'took', text: Math.round(tookMs) + ' ms' });
    if (reply.error) {
      return { node: el('div', { className: 'envelope', 'data-status': 'protocol-error' }, [
        el('div', { className: 'head' }, [el('span', { text: 'JSON-RPC error' }), el('span', { className: 'code', text: String(reply.error.code) }), took]),
        el('p', { className: 'message', text: reply.error.message }),
        raw('Response', reply, true),
      ]) };
    }
    var envelope = envelopeOf(reply.result);
    var status = envelope ? envelope.status : reply.result && reply.result.isError ? 'error' : 'success';
    var children = [];
    var head = el('div', { className: 'head' }, [el('span', { className: 'status', text: status })]);
    children.push(head);
    if (envelope && envelope.error) {
      head.append(el('span', { className: 'code', text: envelope.error.code }));
      if (envelope.error.retryable) head.append(el('span', { className: 'badge', text: 'retryable' }));
      children.push(el('p', { className: 'message', text: envelope.error.message }));
      if (Array.isArray(envelope.error.fields) && envelope.error.fields.length) children.push(el('p', { className: 'message fields', text: 'Fields: ' + envelope.error.fields.join(', ') }));
    }
    head.append(took);
    var view = { envelope: envelope, head: head, took: took, progress: null, polls: null, node: null, body: null };
    if (status === 'pending') {
      view.progress = el('div', { className: 'progress' }, [el('progress', { max: 1 }), el('span', { className: 'progress-text', text: 'queued' })]);
      view.polls = el('ol', { className: 'polls' });
      children.push(view.progress);
    }
    view.body = el('pre', { className: 'data', text: pretty(envelope ? (envelope.data !== undefined ? envelope.data : envelope.error) : reply.result) });
    children.push(view.body);
    if (view.polls) children.push(el('details', { open: true }, [el('summary', { text: 'get_job_status polls' }), view.polls]));
    children.push(raw('Response', reply, false));
    view.node = el('div', { className: 'envelope', 'data-status': status }, children);
    return view;
  }

  function failureView(error) {
    return el('div', { className: 'envelope', 'data-status': 'protocol-error' }, [
      el('div', { className: 'head' }, [el('span', { text: 'Request failed' })]), el('p', { className: 'message', text: error.message }), el('pre', { text: '' }),
    ]);
  }

  /** Polls get_job_status until the job is no longer pending, showing its progress; the view becomes the result. */
  async function pollJob(jobId, view, superseded, started) {
    var polls = 0;
    var cancel = el('button', { type: 'button', className: 'secondary', text: 'Cancel job' });
    cancel.addEventListener('click', function () { request('tools/call', { name: 'cancel_job', arguments: { job_id: jobId } }).catch(function () {}); });
    view.progress.append(cancel);
    for (;;) {
      await new Promise(function (resolve) { setTimeout(resolve, POLL_MS); });
      if (superseded()) return;
      var answer = await request('tools/call', { name: 'get_job_status', arguments: { job_id: jobId } });
      if (superseded()) return;
      polls += 1;
      view.node.setAttribute('data-polls', String(polls));
      var envelope = answer.reply.error ? undefined : envelopeOf(answer.reply.result);
      if (envelope && envelope.status === 'pending') {
        var data = envelope.data || {};
        var bar = view.progress.querySelector('progress');
        if (typeof data.progress === 'number' && typeof data.total === 'number' && data.total > 0) { bar.max = data.total; bar.value = data.progress; }
        var text = (typeof data.progress === 'number' ? data.progress + (data.total ? ' / ' + data.total : '') : 'running') + (data.message ? ' · ' + data.message : '');
        view.progress.querySelector('.progress-text').textContent = text;
        view.polls.append(el('li', { text: 'pending · ' + text }));
        continue;
      }
      var final = renderAnswer(answer.reply, performance.now() - started);
      final.node.setAttribute('data-polls', String(polls));
      final.node.setAttribute('data-job-id', jobId);
      var log = view.polls;
      log.append(el('li', { text: (envelope ? envelope.status : 'answer') + ' after ' + polls + ' poll' + (polls === 1 ? '' : 's') }));
      final.node.insertBefore(el('details', null, [el('summary', { text: 'job ' + jobId + ' · get_job_status polls' }), log]), final.node.lastChild);
      view.node.replaceWith(final.node);
      return;
    }
  }

  // ---- MCP Apps (host side) ----------------------------------------------------------------------------------
  /** The tool's _meta.ui, when the server declared the extension (the flat legacy key is not read: we write both). */
  function uiOf(tool) {
    var extensions = session.capabilities.extensions;
    if (!extensions || !extensions[UI_EXTENSION]) return undefined;
    var ui = tool._meta && tool._meta.ui;
    return ui && typeof ui.resourceUri === 'string' && ui.resourceUri.indexOf('ui://') === 0 ? ui : undefined;
  }

  /** resources/read of the app, once per session and URI. */
  function readApp(uri) {
    if (!session.apps) session.apps = new Map();
    if (!session.apps.has(uri)) {
      session.apps.set(uri, request('resources/read', { uri: uri }).then(function (answer) {
        if (answer.reply.error) throw new Error('resources/read ' + uri + ': ' + answer.reply.error.message);
        var content = (answer.reply.result.contents || []).filter(function (item) { return item.mimeType === UI_MIME_TYPE && typeof item.text === 'string'; })[0];
        if (!content) throw new Error('resources/read ' + uri + ': no ' + UI_MIME_TYPE + ' text content');
        return { html: content.text, meta: (content._meta && content._meta.ui) || {} };
      }));
      session.apps.get(uri).catch(function () { session.apps.delete(uri); });
    }
    return session.apps.get(uri);
  }

  /**
   * The app of one call: read, framed through the sandbox proxy (sandbox="allow-scripts": an opaque origin that
   * reaches nothing of this page), then ui/initialize is answered and the call's input and result delivered.
   * Permissions the app asks for (camera...) are not granted: the frame has no allow attribute.
   */
  function appView(tool, ui, args, toolResult, superseded) {
    var box = el('div', { className: 'app', 'data-app': ui.resourceUri }, [el('p', { className: 'hint', text: 'Loading ' + ui.resourceUri + '…' })]);
    readApp(ui.resourceUri).then(function (app) {
      if (superseded()) return;
      var csp = app.meta.csp && Object.keys(app.meta.csp).length ? '?csp=' + encodeURIComponent(JSON.stringify(app.meta.csp)) : '';
      var frame = el('iframe', { className: 'app-frame', sandbox: 'allow-scripts', title: ui.resourceUri, src: appFrame + csp, height: 160 });
      if (app.meta.prefersBorder === true) box.classList.add('border');
      var log = [];
      box.mcpLog = log;
      var post = function (message) { log.push({ direction: 'host→app', message: message }); frame.contentWindow.postMessage(message, '*'); };
      var onMessage = function (event) {
        if (event.source !== frame.contentWindow) return;
        if (!box.isConnected) { window.removeEventListener('message', onMessage); return; }
        var message = event.data;
        if (!message || message.jsonrpc !== '2.0') return;
        log.push({ direction: 'app→host', message: message });
        box.setAttribute('data-last', String(message.method));
        if (message.method === 'ui/notifications/sandbox-proxy-ready') {
          // To the proxy, not yet the app: the HTML, as the spec's sandbox-resource-ready.
          frame.contentWindow.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: app.html, csp: app.meta.csp } }, '*');
        } else if (message.method === 'ui/initialize' && message.id !== undefined) {
          post({ jsonrpc: '2.0', id: message.id, result: {
            protocolVersion: UI_PROTOCOL_VERSION,
            hostInfo: { name: 'nest-mcp-explorer', version: config.version },
            hostCapabilities: {},
            hostContext: { theme: 'light', displayMode: 'inline', availableDisplayModes: ['inline'], locale: navigator.language, platform: 'web',
              toolInfo: { tool: tool } },
          } });
        } else if (message.method === 'ui/notifications/initialized') {
          post({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: args } });
          post({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: toolResult });
          box.setAttribute('data-delivered', 'true');
        } else if (message.method === 'ui/notifications/size-changed') {
          var height = message.params && Number(message.params.height);
          if (Number.isFinite(height) && height > 0) frame.setAttribute('height', String(Math.min(Math.ceil(height), 2000)));
        } else if (message.method !== undefined && message.id !== undefined) {
          post({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Not supported by the explorer: ' + message.method } });
        }
      };
      window.addEventListener('message', onMessage);
      box.replaceChildren(frame);
    }).catch(function (error) {
      box.replaceChildren(el('p', { className: 'note', text: error.message }));
    });
    return box;
  }

  // ---- resources and prompts ----------------------------------------------------------------------------------
  function readPanel(resource, uri, isTemplate) {
    var input = el('input', { type: 'text', name: 'uri', value: uri, autocomplete: 'off', spellcheck: 'false' });
    var submit = el('button', { type: 'submit', className: 'primary', text: 'Read' });
    var result = el('div', { className: 'result' });
    var form = el('form', { className: 'call', 'data-resource': uri, novalidate: true }, [
      el('div', { className: 'field' }, [el('label', { text: 'uri' }), isTemplate ? el('p', { className: 'hint', text: 'Fill in the {placeholders} of the template.' }) : null, input]), submit,
    ]);
    form.addEventListener('submit', async function (event) {
      event.preventDefault();
      var started = performance.now();
      try {
        var answer = await request('resources/read', { uri: input.value });
        result.replaceChildren(renderAnswer(answer.reply.error ? answer.reply : { result: { structuredContent: { status: 'success', data: answer.reply.result } } }, performance.now() - started).node);
      } catch (error) { result.replaceChildren(failureView(error)); }
    });
    return el('section', { className: 'item resource' }, [el('h2', { text: resource.name || uri }), el('p', { className: 'description', text: (resource.description || '') + (resource.mimeType ? ' · ' + resource.mimeType : '') }), form, result]);
  }

  function promptPanel(prompt) {
    var fields = (prompt.arguments || []).map(function (argument) {
      return fieldFor(argument.name, { type: 'string', description: argument.description }, argument.required === true);
    });
    var submit = el('button', { type: 'submit', className: 'primary', text: 'Get prompt' });
    var result = el('div', { className: 'result' });
    var form = el('form', { className: 'call', 'data-prompt': prompt.name, novalidate: true }, fields.map(function (field) { return field.node; }).concat([submit]));
    form.addEventListener('submit', async function (event) {
      event.preventDefault();
      clearMarks(fields);
      var args = argumentsOf(fields);
      if (!args) return;
      var started = performance.now();
      try {
        var answer = await request('prompts/get', { name: prompt.name, arguments: args });
        result.replaceChildren(renderAnswer(answer.reply.error ? answer.reply : { result: { structuredContent: { status: 'success', data: answer.reply.result } } }, performance.now() - started).node);
      } catch (error) { result.replaceChildren(failureView(error)); }
    });
    return el('section', { className: 'item prompt' }, [el('h2', { text: prompt.name }), el('p', { className: 'description', text: prompt.description || '' }), form, result]);
  }

  // ---- start -------------------------------------------------------------------------------------------------
  $('auth').addEventListener('submit', function (event) { event.preventDefault(); connect(); });
  window.addEventListener('pagehide', function () {
    // Ends the session; keepalive lets the request outlive the page.
    if (session.id) fetch(endpoint, { method: 'DELETE', headers: headers(), keepalive: true }).catch(function () {});
  });
  connect();
})();
`;
