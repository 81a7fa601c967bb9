// The console's pages as server-rendered HTML shells: the forms and tables are in the markup (so
// labels, headings and keyboard order exist without script), and console-script.ts fills them
// from the portal's JSON calls. Nothing tenant-specific is rendered here: the session cookie is
// scoped to /api/portal, so only the portal calls know who is signed in.

export type ConsolePage = 'login' | 'tokens' | 'audit';

const TITLES: Record<ConsolePage, string> = {
  login: 'Log in',
  tokens: 'API tokens',
  audit: 'Audit trail',
};

function layout(page: ConsolePage, body: string): string {
  const nav =
    page === 'login'
      ? ''
      : `<nav aria-label="Console"><a href="/console/tokens"${page === 'tokens' ? ' aria-current="page"' : ''}>API tokens</a><a href="/console/audit"${page === 'audit' ? ' aria-current="page"' : ''}>Audit trail</a></nav><div><span id="who" aria-live="polite"></span> <button type="button" id="logout" class="secondary">Log out</button></div>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${TITLES[page]} · fieldops console</title><link rel="stylesheet" href="/console/console.css"><script src="/console/console.js" defer></script></head><body data-page="${page}"><a class="skip" href="#main">Skip to content</a><header><strong>fieldops console</strong>${nav}</header><main id="main" tabindex="-1"><h1>${TITLES[page]}</h1><noscript><p class="alert">The console needs JavaScript turned on.</p></noscript>${body}</main></body></html>`;
}

const field = (name: string, label: string, input: string, hint = ''): string =>
  `<div class="field" data-field="${name}"><label for="${name}">${label}</label>${hint ? `<p class="hint" id="${name}-hint">${hint}</p>` : ''}${input}</div>`;

const LOGIN = `<form id="login-form" novalidate>
<p class="alert" role="alert" id="form-error"></p>
${field('tenantId', 'Tenant id', '<input id="tenantId" name="tenantId" autocomplete="organization" required>', 'As given when your business signed up, e.g. ten_…')}
${field('email', 'Email', '<input id="email" name="email" type="email" autocomplete="username" required>')}
${field('password', 'Password', '<input id="password" name="password" type="password" autocomplete="current-password" required>')}
<button type="submit">Log in</button>
</form>`;

const ISSUE_FORM = `<section class="panel" aria-labelledby="issue-title">
<h2 id="issue-title">Issue a token</h2>
<form id="issue-form" novalidate>
<p class="alert" role="alert" id="form-error"></p>
${field('name', 'Name', '<input id="name" name="name" maxlength="100" aria-describedby="name-hint">', 'A label people recognise, e.g. “Estimating agent”.')}
${field('role', 'Role', '<select id="role" name="role" required aria-describedby="role-hint"></select>', 'The token acts as this role; it can never do more.')}
<fieldset id="permissions" data-field="permissions"><legend>Narrowing</legend>
<div class="field"><label><input type="checkbox" id="narrow"> Narrow this token to some kinds and verbs</label></div>
<div class="table-wrap"><table class="grid" id="grid"><caption class="hint">Verbs the role does not grant cannot be chosen.</caption><thead></thead><tbody></tbody></table></div>
</fieldset>
${field('projectIds', 'Projects', '<input id="projectIds" name="projectIds" aria-describedby="projectIds-hint">', 'Project ids separated by commas; empty for every project.')}
<div id="member-field" hidden>${field('memberId', 'Bound to member', '<select id="memberId" name="memberId" aria-describedby="memberId-hint"></select>', 'A bound token acts for that member and never beyond their role.')}</div>
${field('expiresAt', 'Expires', '<input id="expiresAt" name="expiresAt" type="datetime-local" aria-describedby="expiresAt-hint">', 'Your local time; empty for a token that does not expire.')}
<button type="submit" id="issue">Issue token</button>
</form>
</section>
<section class="panel" id="issued" hidden aria-labelledby="issued-title" tabindex="-1">
<h2 id="issued-title">Token issued: copy its secret now</h2>
<p>This is the only time the secret is shown. Store it where your tool reads it.</p>
<code class="secret" id="secret"></code>
<button type="button" id="copy">Copy secret</button> <span id="copy-status" role="status"></span>
<h3>What the token can do (<code>GET /api/v1/me</code> with it)</h3>
<pre id="me" aria-live="polite"></pre>
<button type="button" id="done" class="secondary">I have stored it: hide the secret</button>
</section>`;

const TOKENS = `<p class="notice" role="status" id="notice"></p>
${ISSUE_FORM}
<section aria-labelledby="list-title"><h2 id="list-title">Tokens</h2>
<p class="alert" role="alert" id="list-error"></p>
<div class="table-wrap"><table id="tokens"><thead><tr><th scope="col">Name</th><th scope="col">Token</th><th scope="col">Role</th><th scope="col">Narrowing</th><th scope="col">Projects</th><th scope="col">Member</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="hint">Actions</span></th></tr></thead><tbody></tbody></table></div>
<button type="button" id="more" class="secondary" hidden>Show more tokens</button>
</section>`;

const AUDIT = `<section class="panel" aria-labelledby="chain-title"><h2 id="chain-title">Chain verification</h2><p id="chain" aria-live="polite">Checking…</p><p>Head hash: <code id="head-hash">…</code></p></section>
<form id="audit-filter" novalidate class="panel">
<p class="alert" role="alert" id="form-error"></p>
<div class="row">
${field('tokenId', 'Token id', '<input id="tokenId" name="tokenId" maxlength="100">')}
${field('runId', 'Agent run id', '<input id="runId" name="runId" maxlength="500">')}
${field('resourceId', 'Resource id', '<input id="resourceId" name="resourceId" maxlength="100">')}
${field('action', 'Action', '<input id="action" name="action" maxlength="100" placeholder="e.g. lead.created">')}
</div>
<button type="submit">Filter</button> <button type="reset" class="secondary" id="clear">Clear filters</button>
</form>
<p class="alert" role="alert" id="list-error"></p>
<div class="table-wrap"><table id="entries"><caption class="hint">Newest first.</caption><thead><tr><th scope="col">#</th><th scope="col">When (UTC)</th><th scope="col">Action</th><th scope="col">Resource</th><th scope="col">Token</th><th scope="col">Member</th><th scope="col">Request</th><th scope="col">Agent</th></tr></thead><tbody></tbody></table></div>
<button type="button" id="more" class="secondary" hidden>Show older entries</button>`;

const BODIES: Record<ConsolePage, string> = { login: LOGIN, tokens: TOKENS, audit: AUDIT };

export const renderConsolePage = (page: ConsolePage): string => layout(page, BODIES[page]);
