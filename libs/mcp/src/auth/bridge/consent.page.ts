import { escapeHtml } from './bridge-reply.js';

/** The consent page: who asks, for what, and an approve/deny form carrying the transaction and its CSRF token. */
export function consentPage(params: {
  client: string;
  redirectHost: string;
  user: string;
  scopes: string[];
  transaction: string;
  csrf: string;
}): string {
  const scopes = params.scopes.length > 0 ? params.scopes.map((scope) => `<li>${escapeHtml(scope)}</li>`).join('') : '<li>(no scope)</li>';
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Allow access?</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{margin-right:1rem;padding:.5rem 1rem}</style>
</head><body>
<h1>Allow access?</h1>
<p><strong>${escapeHtml(params.client)}</strong> (returning to ${escapeHtml(params.redirectHost)}) asks to act as <strong>${escapeHtml(params.user)}</strong> with:</p>
<ul>${scopes}</ul>
<form method="post" action="consent" data-consent>
<input type="hidden" name="transaction" value="${escapeHtml(params.transaction)}">
<input type="hidden" name="csrf" value="${escapeHtml(params.csrf)}">
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
</body></html>`;
}
