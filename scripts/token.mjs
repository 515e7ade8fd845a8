#!/usr/bin/env node
// `npm run token -- --tenant acme --scope "weather:read"`: prints an HS256 JWT a sample server accepts, signed with the
// secret that sample reads from its environment. The three samples read the same claims (`sub`, `tenant_id`, `scope`
// space-separated); only the secret's variable differs.
import { parseArgs } from 'node:util';
import { Buffer } from 'node:buffer';
import { SignJWT } from 'jose';

/** Each sample: the variable its secret comes from, the scopes a token gets by default, the least secret it takes. */
const APPS = {
  weather: { secret: 'MCP_JWT_SECRET', scope: 'weather:read weather:write', minLength: 1 },
  helpdesk: { secret: 'HELPDESK_JWT_SECRET', scope: 'tickets:read tickets:write', minLength: 32 },
  gateway: { secret: 'MCP_JWT_SECRET', scope: '', minLength: 1 },
};

const USAGE =
  'usage: npm run token -- [--app weather|helpdesk|gateway] [--tenant acme] [--scope "weather:read weather:write"] ' +
  '[--sub alice] [--expires 1h]';

function fail(message) {
  process.stderr.write(`token: ${message}\n`);
  process.exit(1);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      app: { type: 'string', default: 'weather' },
      tenant: { type: 'string', default: 'acme' },
      scope: { type: 'string' },
      sub: { type: 'string', default: 'dev' },
      expires: { type: 'string', default: '1h' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  fail(`${error.message}\n${USAGE}`);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const app = APPS[values.app];
if (!app) fail(`--app ${values.app} is not a sample; use ${Object.keys(APPS).join(', ')}`);
const secret = process.env[app.secret] ?? '';
if (secret.length < app.minLength) {
  fail(
    `${app.secret} is not set${secret ? ` to at least ${app.minLength} characters` : ''}: export the secret the ${values.app} sample ` +
      `runs with (e.g. export ${app.secret}=$(openssl rand -hex 32), then start the sample in that shell)`,
  );
}

const scope = values.scope ?? app.scope;
const token = await new SignJWT({ tenant_id: values.tenant, ...(scope && { scope }) })
  .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
  .setSubject(values.sub)
  .setIssuedAt()
  .setExpirationTime(values.expires)
  .sign(Buffer.from(secret, 'utf8'));
process.stdout.write(`${token}\n`);
