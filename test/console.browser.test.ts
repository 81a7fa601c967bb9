// The tenant console as a manager uses it, in Debian's Chromium: log in (a wrong password is
// answered on the page), issue a narrowed token with a double click (one token is issued), copy
// its secret (shown once), use it on /api/v1, revoke it (the next call is refused), and find its
// writes on the audit page with their agent headers and the chain's state. One browser per file.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, browserSuiteTitle, launchBrowser, screenshot, textOf } from './support/browser.ts';
import { eventually, startTestPlatform, type Client, type TestPlatform } from './support/harness.ts';

const suite = CHROMIUM ? describe : describe.skip;
const EMAIL = 'manager@console.test';
const PASSWORD = 'correct horse battery';

/** The page's globals this test reads (the tests are typed without the DOM library). */
interface Clipboarded {
  navigator: { clipboard: { readText(): Promise<string> } };
}

let platform: TestPlatform;
let tenantId: string;
let managerApi: Client;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let issued: { id: string; secret: string; api: Client };

suite(browserSuiteTitle('tenant console in a browser'), () => {
  beforeAll(async () => {
    platform = await startTestPlatform();
    ({ tenantId, api: managerApi } = await platform.tenant('Console Co'));
    const added = await platform.admin.post(`/tenants/${tenantId}/members`, {
      name: 'Morgan Manager',
      email: EMAIL,
      role: 'Manager',
      password: PASSWORD,
    });
    expect(added.status).toBe(201);
    browser = await launchBrowser();
    context = await browser.newContext({ baseURL: platform.url });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.url });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const logIn = async (password: string) => {
    await page.fill('#tenantId', tenantId);
    await page.fill('#email', EMAIL);
    await page.fill('#password', password);
    await page.click('button[type=submit]');
  };

  it('answers a wrong password on the page, then logs in', async () => {
    await page.goto('/console/');
    await page.click('button[type=submit]'); // nothing filled in
    expect(await textOf(page, '[data-field="tenantId"] .field-error')).toContain('tenantId');
    expect(await page.locator('#tenantId').getAttribute('aria-invalid')).toBe('true');
    expect(await page.content()).not.toMatch(/at \S+\.(ts|js):\d+/); // never a stack trace
    await logIn('not the password');
    await page.waitForSelector('#form-error:has-text("password is not right")');
    expect(await page.locator('.field-error').count()).toBe(0); // a failed login names no one field
    await screenshot(page, 'console-login-refused');
    await logIn(PASSWORD);
    await page.waitForURL('**/console/tokens');
    await page.waitForSelector('#role option[value="Manager"]', { state: 'attached' });
    expect(await page.locator('#who').textContent()).toContain(EMAIL);
  });

  it('names the field of a bad input on the form and issues nothing', async () => {
    await page.fill('#name', 'Past token');
    await page.fill('#expiresAt', '2001-01-01T10:00');
    await page.click('#issue');
    expect(await textOf(page, '[data-field="expiresAt"] .field-error')).toContain(
      'expiresAt must be in the future',
    );
    expect(await page.locator('#expiresAt').getAttribute('aria-invalid')).toBe('true');
    expect(await textOf(page, '#form-error')).toMatch(/^Expires: /);
    await screenshot(page, 'console-issue-refused');
    expect(await page.locator('#tokens tbody tr', { hasText: 'Past token' }).count()).toBe(0);
  });

  it('issues a narrowed token once on a double click, shows the secret once and its /me', async () => {
    await page.fill('#expiresAt', '');
    await page.fill('#name', 'Lead agent');
    await page.check('#narrow');
    await page.check('input[name=perm][value="lead:read"]');
    await page.check('input[name=perm][value="lead:create"]');
    await page.dblclick('#issue');
    await page.waitForSelector('#issued:not([hidden])');
    const secret = (await page.locator('#secret').textContent()) ?? '';
    expect(secret.length).toBeGreaterThan(20);
    await page.click('#copy');
    expect(await textOf(page, '#copy-status')).toContain('Copied');
    expect(
      await page.evaluate(() => (globalThis as unknown as Clipboarded).navigator.clipboard.readText()),
    ).toBe(secret);
    await page.waitForSelector('#me:has-text("tok_")');
    const me = JSON.parse((await page.locator('#me').textContent()) ?? '{}') as { token: { id: string } };
    await page.waitForSelector('#tokens tbody tr');
    await screenshot(page, 'console-token-issued');
    expect(await page.locator('#tokens tbody tr', { hasText: 'Lead agent' }).count()).toBe(1);
    issued = { id: me.token.id, secret, api: platform.client(secret) };

    const reply = await issued.api.get('/me');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ token: { id: issued.id } });
    expect(JSON.stringify(reply.body)).toContain('"lead":["read","create"]');
    expect((await issued.api.post('/customers', { name: 'Beyond the narrowing' })).status).toBe(403);
    const lead = await issued.api.post(
      '/leads',
      { name: 'Harbour roof survey' },
      { 'x-agent-run-id': 'run-console-1', 'x-agent-task': 'triage', 'x-agent-model': 'model-y' },
    );
    expect(lead.status).toBe(201);

    await page.click('#done');
    await page.reload();
    await page.waitForSelector('#tokens tbody tr');
    expect(await page.content()).not.toContain(secret);
  });

  it('revokes the token with immediate effect', async () => {
    const row = page.locator('#tokens tbody tr', { hasText: 'Lead agent' });
    await row.locator('button.revoke').click();
    await page.waitForSelector('#notice:has-text("revoked")');
    await expect(row.locator('.status-revoked').count()).resolves.toBe(1);
    await screenshot(page, 'console-token-revoked');
    const refused = await issued.api.get('/me');
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 401, code: 'revoked' });
  });

  it("shows the token's writes on the audit page with agent headers and the chain's state", async () => {
    // The audit service receives writes from the outbox asynchronously: wait for this one first.
    await eventually(async () => {
      const listed = await managerApi.get(`/audit?tokenId=${issued.id}&action=lead.created`);
      return (listed.body.items as unknown[]).length ? true : undefined;
    });
    await page.click('nav >> text=Audit trail');
    await page.waitForURL('**/console/audit');
    await page.fill('#tokenId', issued.id);
    await page.click('#audit-filter button[type=submit]');
    const created = page.locator('#entries tbody tr[data-action="lead.created"]');
    await created.waitFor();
    expect(await page.locator('#entries tbody tr').count()).toBe(1);
    expect(await created.locator('.agent').textContent()).toBe(
      'run run-console-1 · task triage · model model-y · confirmed by —',
    );
    expect(page.url()).toContain(`tokenId=${issued.id}`);
    await page.waitForSelector('#chain[data-valid]');
    expect(await page.locator('#chain').getAttribute('data-valid')).toBe('true');
    expect(await page.locator('#head-hash').textContent()).toMatch(/^[0-9a-f]{64}$/);
    await screenshot(page, 'console-audit');
  });

  it('logs out: the pages send the browser back to the log-in form', async () => {
    await page.click('#logout');
    await page.waitForURL('**/console/');
    await page.goto('/console/tokens');
    await page.waitForURL('**/console/');
    expect(await page.locator('h1').textContent()).toBe('Log in');
  });
});
