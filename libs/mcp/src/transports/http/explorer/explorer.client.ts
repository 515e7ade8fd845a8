/// <reference lib="dom" />
/**
 * The explorer page's script: a browser MCP client (with a session, as `initialize` makes one) over Streamable HTTP, and an MCP Apps host (apps run
 * in a sandboxed iframe of the proxy `<explorer>/app-frame`). The DOM is built with `createElement`/`textContent` only,
 * so nothing a server returns is ever parsed as markup. The page inlines `runExplorerClient`'s source text
 * (explorer.script.ts): everything it uses lives inside it or comes in through `shared`. The DOM lib reaches the whole
 * library program, so eslint's `no-restricted-globals` keeps the server's code off the browser's globals.
 */

/** The protocol constants the script shares with the server (core/), handed in as JSON: it can import nothing. */
export interface McpExplorerShared {
  readonly sessionHeader: string;
  readonly protocolVersionHeader: string;
  readonly apiKeyHeader: string;
  readonly methodNotFound: number;
  readonly uiExtension: string;
  readonly uiMimeType: string;
  readonly uiProtocolVersion: string;
  readonly skillsExtension: string;
}

/** The page's settings, from its `mcp-explorer-config` data block (explorer.page.ts). */
interface PageConfig {
  endpoint: string;
  protocolVersion: string;
  version: string;
}

interface Reply {
  jsonrpc?: string;
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

interface Session {
  id: string | null;
  version: string | null;
  capabilities: Record<string, unknown> & { extensions?: Record<string, unknown> };
  serverInfo?: { name?: string; title?: string; version?: string };
  apps?: Map<string, Promise<UiApp>>;
}

type Bound = 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum' | 'multipleOf';
/** The JSON Schema keywords the forms read. */
interface Schema extends Partial<Record<Bound, number>> {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  examples?: unknown[];
  properties?: Record<string, Schema>;
  required?: unknown;
}

interface ToolUi {
  resourceUri: string;
  visibility?: unknown;
}

interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Schema;
  annotations?: Record<string, unknown>;
  execution?: { taskSupport?: string };
  _meta?: { ui?: Partial<ToolUi> };
}

interface Resource {
  name?: string;
  description?: string;
  mimeType?: string;
}

/** A `skills/list` entry (the Skills extension): the files of a skill, each a resource. */
interface SkillEntry {
  uri: string;
  frontmatter: { name: string };
  resources: { uri: string }[] | 'dynamic';
}

interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

/** A tool envelope (`{ status, data | error }`). */
interface Envelope {
  status: string;
  data?: Record<string, unknown>;
  error?: { code?: string; message?: string; retryable?: boolean; fields?: unknown[] };
}

/** A form field for one argument; `read()` gives `{ value }` (undefined: leave it out) or `{ error }`. */
interface Field {
  name: string;
  node: HTMLElement;
  input: FormField;
  read(): { value?: unknown; error?: string };
}

interface AnswerView {
  envelope: Envelope | undefined;
  node: HTMLElement;
  progress: HTMLElement | null;
  polls: HTMLElement | null;
}

interface UiApp {
  html: string;
  meta: { csp?: Record<string, unknown>; prefersBorder?: unknown };
}

type Attributes = Record<string, string | number | boolean | null | undefined>;
type Child = HTMLElement | string | null | undefined;
/** A catalogue button: its kind (`data-kind`), name (`data-name`), label, subtitle and the panel it opens. */
type Entry = [kind: string, name: string, label: string, sub: string | undefined, panel: () => HTMLElement];
type FormField = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The page script: called once in the browser with the shared protocol constants. */
export function runExplorerClient(shared: McpExplorerShared): void {
  'use strict';
  const config = JSON.parse(document.getElementById('mcp-explorer-config')!.textContent ?? '{}') as PageConfig;
  // Relative to the page, so a global prefix (app.setGlobalPrefix) is followed; a trailing slash is ignored.
  const here = location.origin + location.pathname.replace(/\/+$/, '');
  const endpoint = new URL(config.endpoint, here).href;
  const appFrame = new URL('app-frame', here + '/').href;
  const POLL_MS = 400;
  let session: Session = { id: null, version: null, capabilities: {} };
  let nextId = 1;
  const panels = new Map<string, HTMLElement>();

  function el<Tag extends keyof HTMLElementTagNameMap>(
    tag: Tag,
    attrs?: Attributes | null,
    children?: Child[],
  ): HTMLElementTagNameMap[Tag] {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs ?? {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'text') node.textContent = String(value);
      else if (key === 'className') node.className = String(value);
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children ?? []) if (child) node.append(child);
    return node;
  }
  const $ = <E extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as E;
  const pretty = (value: unknown) => JSON.stringify(value, null, 2);
  const messageOf = (error: unknown) => (error as Error).message;

  // ---- transport -------------------------------------------------------------------------------------------
  function headers(): Record<string, string> {
    const result: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    if (session.id) result[shared.sessionHeader] = session.id;
    if (session.version) result[shared.protocolVersionHeader] = session.version;
    const credential = $<HTMLInputElement>('auth-value').value.trim();
    if (credential && $<HTMLSelectElement>('auth-kind').value === 'apikey') result[shared.apiKeyHeader] = credential;
    else if (credential) result.Authorization = 'Bearer ' + credential;
    return result;
  }

  /** The JSON-RPC messages of an answer: one JSON body, or the data of each SSE event (keep-alives and partial ones skipped). */
  function messagesOf(contentType: string, text: string): Reply[] {
    const datas = !contentType.includes('text/event-stream')
      ? [text]
      : text.split(/\r?\n\r?\n/).map((block) =>
          block
            .split(/\r?\n/)
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).replace(/^ /, ''))
            .join('\n'),
        );
    return datas.flatMap((data) => {
      try {
        return data ? [JSON.parse(data) as Reply] : [];
      } catch {
        return [];
      }
    });
  }

  async function send(message: Record<string, unknown>) {
    const response = await fetch(endpoint, { method: 'POST', headers: headers(), body: JSON.stringify(message), cache: 'no-store' });
    const text = await response.text();
    return { response, text, messages: messagesOf(response.headers.get('content-type') ?? '', text) };
  }

  /** One request; a session the server forgot (404) is reopened once, as the spec tells clients to. */
  async function request(method: string, params?: Record<string, unknown>, reopened?: boolean): Promise<Reply> {
    const id = nextId++;
    const answer = await send({ jsonrpc: '2.0', id, method, params: params ?? {} });
    if (answer.response.status === 404 && session.id && !reopened) {
      await openSession();
      return request(method, params, true);
    }
    const reply = answer.messages.find((message) => message && message.id === id);
    if (reply) return reply;
    throw httpError(answer);
  }

  /** An answer without the reply asked for, with a hint for the statuses the page's user can fix. */
  function httpError({ response, text, messages }: Awaited<ReturnType<typeof send>>): Error {
    const { status } = response;
    const hint =
      status === 401
        ? ' (this server needs credentials: enter a Bearer token or an API key above)'
        : status === 403
          ? " (refused: missing scope, or this page's origin is not in allowedOrigins)"
          : '';
    const detail = messages[0]?.error ? messages[0].error.message : text;
    return new Error('HTTP ' + status + ': ' + String(detail ?? '').slice(0, 300) + hint);
  }

  async function openSession(): Promise<void> {
    session = { id: null, version: null, capabilities: {} };
    const answer = await send({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'initialize',
      params: {
        protocolVersion: config.protocolVersion,
        // The page is an MCP Apps host: it renders ui:// apps (and so also lists app-only tools).
        capabilities: { extensions: { [shared.uiExtension]: { mimeTypes: [shared.uiMimeType] } } },
        clientInfo: { name: 'nest-mcp-explorer', version: config.version },
      },
    });
    const result = answer.messages[0]?.result as
      { protocolVersion: string; capabilities?: Session['capabilities']; serverInfo?: Session['serverInfo'] } | undefined;
    if (answer.response.status !== 200 || !result) throw httpError(answer);
    session.id = answer.response.headers.get(shared.sessionHeader);
    session.version = result.protocolVersion;
    session.capabilities = result.capabilities ?? {};
    session.serverInfo = result.serverInfo ?? {};
    await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** Every page of a list method (tools/list, resources/list...). */
  async function listAll<Item>(method: string, key: string): Promise<Item[]> {
    let items: Item[] = [];
    let cursor: unknown;
    do {
      const reply = await request(method, cursor ? { cursor } : {});
      if (reply.error) throw new Error(method + ': ' + reply.error.message);
      items = items.concat((reply.result?.[key] as Item[] | undefined) ?? []);
      cursor = reply.result?.nextCursor;
    } while (cursor);
    return items;
  }

  // ---- catalogue -------------------------------------------------------------------------------------------
  async function connect(): Promise<void> {
    const status = $('connection');
    status.className = '';
    status.textContent = 'Connecting…';
    panels.clear();
    for (const id of ['tool-list', 'resource-list', 'prompt-list']) $(id).replaceChildren();
    $('detail').replaceChildren(el('p', { className: 'placeholder', text: 'Pick a tool, resource or prompt on the left.' }));
    try {
      await openSession();
      const info = session.serverInfo ?? {};
      status.className = 'connected';
      const sessionNote = session.id ? ' · session ' + session.id.slice(0, 8) + '…' : '';
      status.textContent = `Connected to ${info.title || info.name || 'server'} ${info.version || ''} · ${session.version}${sessionNote}`;
      const caps = session.capabilities;
      await Promise.all([
        caps.tools ? listAll<Tool>('tools/list', 'tools').then((tools) => showList('tool', tools.map(toolEntry))) : showList('tool', null),
        caps.resources
          ? Promise.all([
              listAll<Resource & { uri: string }>('resources/list', 'resources'),
              listAll<Resource & { uriTemplate: string }>('resources/templates/list', 'resourceTemplates').catch(() => []),
              caps.extensions?.[shared.skillsExtension] ? listAll<SkillEntry>('skills/list', 'skills').catch(() => []) : [],
            ]).then(([resources, templates, skills]) =>
              showList('resource', [
                ...resources.map((item) => readEntry('resource', item, item.uri)),
                ...skills.flatMap(skillFileEntries),
                ...templates.map((item) => readEntry('template', item, item.uriTemplate)),
              ]),
            )
          : showList('resource', null),
        caps.prompts
          ? listAll<Prompt>('prompts/list', 'prompts').then((prompts) => showList('prompt', prompts.map(promptEntry)))
          : showList('prompt', null),
      ]);
      document.body.setAttribute('data-ready', 'true');
    } catch (error) {
      status.className = 'failed';
      status.textContent = messageOf(error);
      document.body.setAttribute('data-ready', 'failed');
    }
  }

  const toolEntry = (tool: Tool): Entry => ['tool', tool.name, tool.name, tool.title, () => toolPanel(tool)];
  const promptEntry = (prompt: Prompt): Entry => ['prompt', prompt.name, prompt.name, prompt.title, () => promptPanel(prompt)];
  /** The files of a skill besides its SKILL.md (listed with the resources already), named `<skill>/<path>`. */
  function skillFileEntries(skill: SkillEntry): Entry[] {
    const root = skill.uri.slice(0, -'SKILL.md'.length);
    return (Array.isArray(skill.resources) ? skill.resources : [])
      .filter((file) => file.uri !== skill.uri && file.uri.startsWith(root))
      .map((file) => readEntry('resource', { name: skill.frontmatter.name + '/' + file.uri.slice(root.length) }, file.uri));
  }
  function readEntry(kind: string, item: Resource, uri: string): Entry {
    return [kind, uri, item.name || uri, uri, () => readPanel(item, uri, kind === 'template')];
  }

  /** Fills the `what` list of the catalogue and its count; null when the server lacks the capability (no count). */
  function showList(what: string, entries: Entry[] | null): void {
    const list = $(what + '-list');
    if (entries) $(what + '-count').textContent = String(entries.length);
    if (!entries?.length) return void list.append(el('li', { className: 'empty', text: 'No ' + what + 's on this server' }));
    for (const [kind, name, label, sub, panel] of entries) {
      const button = el('button', { type: 'button', 'data-kind': kind, 'data-name': name }, [label, sub && el('small', { text: sub })]);
      button.addEventListener('click', () => select(button, kind + ':' + name, panel));
      list.append(el('li', null, [button]));
    }
  }

  function select(button: HTMLElement, key: string, build: () => HTMLElement): void {
    document.querySelectorAll('nav button[aria-current]').forEach((current) => current.removeAttribute('aria-current'));
    button.setAttribute('aria-current', 'true');
    if (!panels.has(key)) panels.set(key, build());
    panels.forEach((panel, other) => (panel.hidden = other !== key));
    const main = $('detail');
    const chosen = panels.get(key)!;
    if (!main.contains(chosen)) {
      main.querySelectorAll('.placeholder').forEach((node) => node.remove());
      main.append(chosen);
    }
  }

  // ---- forms from JSON Schema ------------------------------------------------------------------------------
  /** The one type a property's field edits: 'null' aside; several types, anyOf and oneOf fall back to JSON. */
  function kindOf(schema: Schema): string {
    if ((Array.isArray(schema.enum) && schema.enum.length) || 'const' in schema) return 'enum';
    const types = Array.isArray(schema.type) ? schema.type.filter((type) => type !== 'null') : [schema.type];
    const type = String(types[0]);
    return types.length === 1 && ['string', 'number', 'integer', 'boolean'].includes(type) ? type : 'json';
  }

  function typeLabel(schema: Schema): string {
    const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type || 'any';
    const bounds: string[] = [];
    if (schema.minLength !== undefined) bounds.push('≥ ' + schema.minLength + ' chars');
    if (schema.maxLength !== undefined) bounds.push('≤ ' + schema.maxLength + ' chars');
    if (schema.minimum !== undefined) bounds.push('≥ ' + schema.minimum);
    if (schema.exclusiveMinimum !== undefined) bounds.push('> ' + schema.exclusiveMinimum);
    if (schema.maximum !== undefined) bounds.push('≤ ' + schema.maximum);
    if (schema.exclusiveMaximum !== undefined) bounds.push('< ' + schema.exclusiveMaximum);
    return type + (bounds.length ? ' · ' + bounds.join(', ') : '');
  }

  function fieldFor(name: string, schema: Schema, required: boolean): Field {
    const id = 'f-' + Math.random().toString(36).slice(2);
    const kind = kindOf(schema);
    const hasDefault = schema.default !== undefined;
    let input: FormField;
    let read: Field['read'];
    // A boolean that may be left out is a choice of true, false or nothing, as an optional enum.
    if (kind === 'enum' || (kind === 'boolean' && !required && !hasDefault)) {
      const choices = kind === 'boolean' ? [true, false] : Array.isArray(schema.enum) ? schema.enum : [schema.const];
      input = el('select', { id, name });
      if (!required || !hasDefault) input.append(el('option', { value: '', text: required ? 'choose…' : '(not set)' }));
      choices.forEach((choice, index) => {
        const text = typeof choice === 'string' ? choice : JSON.stringify(choice);
        input.append(el('option', { value: String(index), text, selected: hasDefault && pretty(choice) === pretty(schema.default) }));
      });
      read = () => ({ value: input.value === '' ? undefined : choices[Number(input.value)] });
    } else if (kind === 'boolean') {
      const box = (input = el('input', { id, name, type: 'checkbox', checked: schema.default === true }));
      read = () => ({ value: box.checked });
    } else if (kind === 'number' || kind === 'integer') {
      input = el('input', {
        id,
        name,
        type: 'number',
        min: schema.minimum ?? schema.exclusiveMinimum,
        max: schema.maximum ?? schema.exclusiveMaximum,
        step: schema.multipleOf ?? (kind === 'integer' ? 1 : 'any'),
        value: hasDefault ? (schema.default as number) : undefined,
      });
      read = () => {
        if (input.value.trim() === '') return { value: undefined };
        const number = Number(input.value);
        return Number.isFinite(number) ? { value: number } : { error: 'not a number' };
      };
    } else if (kind === 'string') {
      const example = Array.isArray(schema.examples) && schema.examples.length ? 'e.g. ' + schema.examples[0] : undefined;
      input = el('input', {
        id,
        name,
        type: 'text',
        minlength: schema.minLength,
        maxlength: schema.maxLength,
        value: hasDefault ? (schema.default as string) : undefined,
        placeholder: example,
        autocomplete: 'off',
        spellcheck: 'false',
      });
      read = () => ({ value: input.value === '' ? undefined : input.value });
    } else {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      const shape = types.includes('array') ? 'array' : types.includes('object') ? 'object' : undefined;
      input = el('textarea', {
        id,
        name,
        placeholder: shape === 'array' ? '[ ]  (JSON)' : shape === 'object' ? '{ }  (JSON)' : 'JSON',
        spellcheck: 'false',
      });
      if (hasDefault) input.value = pretty(schema.default);
      read = () => {
        if (input.value.trim() === '') return { value: undefined };
        let value: unknown;
        try {
          value = JSON.parse(input.value);
        } catch (error) {
          return { error: 'is not valid JSON: ' + messageOf(error) };
        }
        if (shape === 'array' && !Array.isArray(value)) return { error: 'must be a JSON array' };
        if (shape === 'object' && (value === null || typeof value !== 'object' || Array.isArray(value)))
          return { error: 'must be a JSON object' };
        return { value };
      };
    }
    if (required) input.setAttribute('aria-required', 'true');
    const label = el('label', { for: id }, [
      name,
      required ? el('span', { className: 'req', title: 'required', text: '*' }) : null,
      el('span', { className: 'type', text: typeLabel(schema) + (hasDefault ? ' · default ' + JSON.stringify(schema.default) : '') }),
    ]);
    const hint = schema.description ? el('p', { className: 'hint', text: schema.description }) : null;
    const node = el('div', { className: 'field', 'data-field': name }, [label, hint, input]);
    return { name, node, input, read };
  }

  function markField(field: Field, message: string | undefined): void {
    field.node.classList.add('invalid');
    field.input.setAttribute('aria-invalid', 'true');
    field.node.append(el('p', { className: 'note', text: message }));
  }

  function clearMarks(fields: Field[]): void {
    for (const field of fields) {
      field.node.classList.remove('invalid');
      field.input.removeAttribute('aria-invalid');
      field.node.querySelectorAll('.note').forEach((note) => note.remove());
    }
  }

  /** The arguments of a form, or null after marking the fields whose input cannot be sent (bad JSON...). */
  function argumentsOf(fields: Field[]): Record<string, unknown> | null {
    const args: Record<string, unknown> = {};
    let ok = true;
    for (const field of fields) {
      const read = field.read();
      if (read.error) {
        ok = false;
        markField(field, field.name + ' ' + read.error);
      } else if (read.value !== undefined) args[field.name] = read.value;
    }
    return ok ? args : null;
  }

  // ---- tools -----------------------------------------------------------------------------------------------
  function toolPanel(tool: Tool): HTMLElement {
    const schema = tool.inputSchema ?? {};
    const required: unknown[] = Array.isArray(schema.required) ? schema.required : [];
    const fields = Object.keys(schema.properties ?? {}).map((name) =>
      fieldFor(name, schema.properties![name] ?? {}, required.includes(name)),
    );
    const ui = uiOf(tool);
    const badges = [
      ...['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']
        .filter((hint) => tool.annotations?.[hint] === true)
        .map((hint) => hint.replace(/Hint$/, '')),
      tool.execution?.taskSupport && 'task: ' + tool.execution.taskSupport,
      ui && 'app: ' + ui.resourceUri,
      ui && Array.isArray(ui.visibility) && !ui.visibility.includes('model') && 'app only',
    ].map((text) => (text ? el('span', { className: 'badge', text }) : null));
    const result = el('div', { className: 'result' });
    const noArguments = el('p', { className: 'hint', text: 'This tool takes no arguments.' });
    const inputs = fields.length ? fields.map((field) => field.node) : [noArguments];
    let run = 0;
    const form = callForm({ 'data-tool': tool.name }, inputs, 'Call ' + tool.name, async (submit) => {
      // The server is the judge of bounds and formats (the point of the page): only input that cannot be encoded stops here.
      clearMarks(fields);
      const args = argumentsOf(fields);
      if (!args) return;
      const mine = ++run;
      const superseded = () => mine !== run;
      submit.disabled = true;
      const started = performance.now();
      try {
        const reply = await request('tools/call', { name: tool.name, arguments: args });
        if (superseded()) return;
        const view = renderAnswer(reply, performance.now() - started);
        result.replaceChildren(view.node);
        const envelope = view.envelope;
        if (ui && !reply.error && envelope?.status !== 'pending') result.prepend(appView(tool, ui, args, reply.result, superseded));
        if (envelope?.status === 'error' && Array.isArray(envelope.error?.fields)) {
          for (const path of envelope.error.fields) {
            const field = fields.find((candidate) => candidate.name === String(path).split(/[.[]/)[0]);
            if (field) markField(field, envelope.error.message);
          }
        }
        if (envelope?.status === 'pending' && envelope.data?.job_id) await pollJob(String(envelope.data.job_id), view, superseded, started);
      } catch (error) {
        if (!superseded()) result.replaceChildren(failureView(error));
      } finally {
        if (!superseded()) submit.disabled = false;
      }
    });
    const section = { className: 'item tool', 'data-tool': tool.name };
    return panel(section, tool.name, tool.description || tool.title || '', [el('div', { className: 'badges' }, badges), form, result]);
  }

  /** A call form: `children`, then a submit button that runs `onSubmit` (the page never navigates). */
  function callForm(attrs: Attributes, children: Child[], label: string, onSubmit: (submit: HTMLButtonElement) => unknown) {
    const submit = el('button', { type: 'submit', className: 'primary', text: label });
    const form = el('form', { className: 'call', ...attrs, novalidate: true }, [...children, submit]);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void onSubmit(submit);
    });
    return form;
  }

  /** A panel of the detail area: heading, description, then `children`. */
  function panel(attrs: Attributes, title: string, description: string, children: Child[]): HTMLElement {
    return el('section', attrs, [el('h2', { text: title }), el('p', { className: 'description', text: description }), ...children]);
  }

  /** The tool envelope of a result: structuredContent, or the JSON text of its first content block. */
  function envelopeOf(result: Record<string, unknown> | undefined): Envelope | undefined {
    const structured = result?.structuredContent as Envelope | undefined;
    if (structured && typeof structured.status === 'string') return structured;
    const first = Array.isArray(result?.content) ? (result.content[0] as { type?: string; text?: string } | undefined) : undefined;
    if (first?.type === 'text') {
      try {
        const parsed = JSON.parse(first.text ?? '');
        if (parsed && typeof parsed.status === 'string') return parsed;
      } catch {
        // plain text content
      }
    }
    return undefined;
  }

  function raw(label: string, value: unknown, open: boolean): HTMLElement {
    return el('details', { open }, [el('summary', { text: label }), el('pre', { text: pretty(value) })]);
  }

  function renderAnswer(reply: Reply, tookMs: number): AnswerView {
    const took = el('span', { className: 'took', text: Math.round(tookMs) + ' ms' });
    if (reply.error) {
      const head = [el('span', { text: 'JSON-RPC error' }), el('span', { className: 'code', text: String(reply.error.code) }), took];
      const node = protocolError(head, reply.error.message, raw('Response', reply, true));
      return { envelope: undefined, node, progress: null, polls: null };
    }
    const envelope = envelopeOf(reply.result);
    const status = envelope ? envelope.status : reply.result?.isError ? 'error' : 'success';
    const head = el('div', { className: 'head' }, [el('span', { className: 'status', text: status })]);
    const children: HTMLElement[] = [head];
    if (envelope?.error) {
      head.append(el('span', { className: 'code', text: envelope.error.code }));
      if (envelope.error.retryable) head.append(el('span', { className: 'badge', text: 'retryable' }));
      children.push(el('p', { className: 'message', text: envelope.error.message }));
      if (Array.isArray(envelope.error.fields) && envelope.error.fields.length)
        children.push(el('p', { className: 'message fields', text: 'Fields: ' + envelope.error.fields.join(', ') }));
    }
    head.append(took);
    let progress: HTMLElement | null = null;
    let polls: HTMLElement | null = null;
    if (status === 'pending') {
      progress = el('div', { className: 'progress' }, [
        el('progress', { max: 1 }),
        el('span', { className: 'progress-text', text: 'queued' }),
      ]);
      polls = el('ol', { className: 'polls' });
      children.push(progress);
    }
    children.push(
      el('pre', {
        className: 'data',
        text: pretty(envelope ? (envelope.data !== undefined ? envelope.data : envelope.error) : reply.result),
      }),
    );
    if (polls) children.push(el('details', { open: true }, [el('summary', { text: 'get_job_status polls' }), polls]));
    children.push(raw('Response', reply, false));
    return { envelope, node: el('div', { className: 'envelope', 'data-status': status }, children), progress, polls };
  }

  function failureView(error: unknown): HTMLElement {
    return protocolError([el('span', { text: 'Request failed' })], messageOf(error), el('pre', { text: '' }));
  }

  function protocolError(head: Child[], message: string, last: HTMLElement): HTMLElement {
    const children = [el('div', { className: 'head' }, head), el('p', { className: 'message', text: message }), last];
    return el('div', { className: 'envelope', 'data-status': 'protocol-error' }, children);
  }

  /** Polls get_job_status until the job is no longer pending, showing its progress; the view becomes the result. */
  async function pollJob(jobId: string, view: AnswerView, superseded: () => boolean, started: number): Promise<void> {
    let polls = 0;
    const progress = view.progress!;
    const log = view.polls!;
    const cancel = el('button', { type: 'button', className: 'secondary', text: 'Cancel job' });
    const cancelJob = () => request('tools/call', { name: 'cancel_job', arguments: { job_id: jobId } }).catch(() => {});
    cancel.addEventListener('click', () => void cancelJob());
    progress.append(cancel);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (superseded()) return;
      const reply = await request('tools/call', { name: 'get_job_status', arguments: { job_id: jobId } });
      if (superseded()) return;
      polls += 1;
      view.node.setAttribute('data-polls', String(polls));
      const envelope = reply.error ? undefined : envelopeOf(reply.result);
      if (envelope?.status === 'pending') {
        const data = envelope.data ?? {};
        const bar = progress.querySelector('progress')!;
        if (typeof data.progress === 'number' && typeof data.total === 'number' && data.total > 0) {
          bar.max = data.total;
          bar.value = data.progress;
        }
        const text =
          (typeof data.progress === 'number' ? data.progress + (data.total ? ' / ' + data.total : '') : 'running') +
          (data.message ? ' · ' + data.message : '');
        progress.querySelector('.progress-text')!.textContent = text;
        log.append(el('li', { text: 'pending · ' + text }));
        continue;
      }
      const final = renderAnswer(reply, performance.now() - started);
      final.node.setAttribute('data-polls', String(polls));
      final.node.setAttribute('data-job-id', jobId);
      log.append(el('li', { text: (envelope ? envelope.status : 'answer') + ' after ' + polls + ' poll' + (polls === 1 ? '' : 's') }));
      final.node.insertBefore(
        el('details', null, [el('summary', { text: 'job ' + jobId + ' · get_job_status polls' }), log]),
        final.node.lastChild,
      );
      view.node.replaceWith(final.node);
      return;
    }
  }

  // ---- MCP Apps (host side) ----------------------------------------------------------------------------------
  /** The tool's _meta.ui, when the server declared the extension (the flat legacy key is not read: we write both). */
  function uiOf(tool: Tool): ToolUi | undefined {
    if (!session.capabilities.extensions?.[shared.uiExtension]) return undefined;
    const ui = tool._meta?.ui;
    return typeof ui?.resourceUri === 'string' && ui.resourceUri.startsWith('ui://') ? (ui as ToolUi) : undefined;
  }

  /** resources/read of the app, once per session and URI. */
  function readApp(uri: string): Promise<UiApp> {
    const apps = (session.apps ??= new Map());
    if (!apps.has(uri)) {
      const app = request('resources/read', { uri }).then((reply) => {
        if (reply.error) throw new Error('resources/read ' + uri + ': ' + reply.error.message);
        const contents = (reply.result?.contents ?? []) as { mimeType?: string; text?: unknown; _meta?: { ui?: UiApp['meta'] } }[];
        const content = contents.find((item) => item.mimeType === shared.uiMimeType && typeof item.text === 'string');
        if (!content) throw new Error('resources/read ' + uri + ': no ' + shared.uiMimeType + ' text content');
        return { html: content.text as string, meta: content._meta?.ui ?? {} };
      });
      apps.set(uri, app);
      app.catch(() => apps.delete(uri));
    }
    return apps.get(uri)!;
  }

  /**
   * The app of one call: read, framed through the sandbox proxy (sandbox="allow-scripts": an opaque origin that
   * reaches nothing of this page), then ui/initialize is answered and the call's input and result delivered.
   * Permissions the app asks for (camera...) are not granted: the frame has no allow attribute.
   */
  function appView(tool: Tool, ui: ToolUi, args: Record<string, unknown>, toolResult: unknown, superseded: () => boolean): HTMLElement {
    const box = el('div', { className: 'app', 'data-app': ui.resourceUri }, [
      el('p', { className: 'hint', text: 'Loading ' + ui.resourceUri + '…' }),
    ]);
    readApp(ui.resourceUri)
      .then((app) => {
        if (superseded()) return;
        const csp = app.meta.csp && Object.keys(app.meta.csp).length ? '?csp=' + encodeURIComponent(JSON.stringify(app.meta.csp)) : '';
        const frame = el('iframe', {
          className: 'app-frame',
          sandbox: 'allow-scripts',
          title: ui.resourceUri,
          src: appFrame + csp,
          height: 160,
        });
        if (app.meta.prefersBorder === true) box.classList.add('border');
        const log: { direction: string; message: unknown }[] = [];
        // Read by the page tests: every message between the host and the app, in order.
        (box as HTMLElement & { mcpLog?: unknown }).mcpLog = log;
        const post = (message: Record<string, unknown>) => {
          log.push({ direction: 'host→app', message });
          frame.contentWindow!.postMessage(message, '*');
        };
        const onMessage = (event: MessageEvent) => {
          if (event.source !== frame.contentWindow) return;
          if (!box.isConnected) return window.removeEventListener('message', onMessage);
          const message = event.data as Reply | null;
          if (!message || message.jsonrpc !== '2.0') return;
          log.push({ direction: 'app→host', message });
          box.setAttribute('data-last', String(message.method));
          if (message.method === 'ui/notifications/sandbox-proxy-ready') {
            // To the proxy, not yet the app: the HTML, as the spec's sandbox-resource-ready.
            frame.contentWindow!.postMessage(
              { jsonrpc: '2.0', method: 'ui/notifications/sandbox-resource-ready', params: { html: app.html, csp: app.meta.csp } },
              '*',
            );
          } else if (message.method === 'ui/initialize' && message.id !== undefined) {
            post({
              jsonrpc: '2.0',
              id: message.id,
              result: {
                protocolVersion: shared.uiProtocolVersion,
                hostInfo: { name: 'nest-mcp-explorer', version: config.version },
                hostCapabilities: {},
                hostContext: {
                  theme: 'light',
                  displayMode: 'inline',
                  availableDisplayModes: ['inline'],
                  locale: navigator.language,
                  platform: 'web',
                  toolInfo: { tool },
                },
              },
            });
          } else if (message.method === 'ui/notifications/initialized') {
            post({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: args } });
            post({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: toolResult });
            box.setAttribute('data-delivered', 'true');
          } else if (message.method === 'ui/notifications/size-changed') {
            const height = Number(message.params?.height);
            if (Number.isFinite(height) && height > 0) frame.setAttribute('height', String(Math.min(Math.ceil(height), 2000)));
          } else if (message.method !== undefined && message.id !== undefined) {
            post({
              jsonrpc: '2.0',
              id: message.id,
              error: { code: shared.methodNotFound, message: 'Not supported by the explorer: ' + message.method },
            });
          }
        };
        window.addEventListener('message', onMessage);
        box.replaceChildren(frame);
      })
      .catch((error) => box.replaceChildren(el('p', { className: 'note', text: messageOf(error) })));
    return box;
  }

  // ---- resources and prompts ----------------------------------------------------------------------------------
  /** The answer of a read or a get, shown like a tool's success envelope. */
  async function showRead(result: HTMLElement, method: string, params: Record<string, unknown>): Promise<void> {
    const started = performance.now();
    try {
      const reply = await request(method, params);
      const shown = reply.error ? reply : { result: { structuredContent: { status: 'success', data: reply.result } } };
      result.replaceChildren(renderAnswer(shown, performance.now() - started).node);
    } catch (error) {
      result.replaceChildren(failureView(error));
    }
  }

  function readPanel(resource: Resource, uri: string, isTemplate: boolean): HTMLElement {
    const input = el('input', { type: 'text', name: 'uri', value: uri, autocomplete: 'off', spellcheck: 'false' });
    const hint = isTemplate ? el('p', { className: 'hint', text: 'Fill in the {placeholders} of the template.' }) : null;
    const result = el('div', { className: 'result' });
    const field = el('div', { className: 'field' }, [el('label', { text: 'uri' }), hint, input]);
    const form = callForm({ 'data-resource': uri }, [field], 'Read', () => showRead(result, 'resources/read', { uri: input.value }));
    const description = (resource.description || '') + (resource.mimeType ? ' · ' + resource.mimeType : '');
    return panel({ className: 'item resource' }, resource.name || uri, description, [form, result]);
  }

  function promptPanel(prompt: Prompt): HTMLElement {
    const fields = (prompt.arguments ?? []).map((argument) =>
      fieldFor(argument.name, { type: 'string', description: argument.description }, argument.required === true),
    );
    const result = el('div', { className: 'result' });
    const inputs = fields.map((field) => field.node);
    const form = callForm({ 'data-prompt': prompt.name }, inputs, 'Get prompt', () => {
      clearMarks(fields);
      const args = argumentsOf(fields);
      if (args) void showRead(result, 'prompts/get', { name: prompt.name, arguments: args });
    });
    return panel({ className: 'item prompt' }, prompt.name, prompt.description || '', [form, result]);
  }

  // ---- start -------------------------------------------------------------------------------------------------
  $('auth').addEventListener('submit', (event) => {
    event.preventDefault();
    void connect();
  });
  window.addEventListener('pagehide', () => {
    // Ends the session; keepalive lets the request outlive the page.
    if (session.id) fetch(endpoint, { method: 'DELETE', headers: headers(), keepalive: true }).catch(() => {});
  });
  void connect();
}
