// A client page as a customer sees it: Debian's Chromium (driven by playwright-core, which
// downloads no browser) opens the link from GET /client-pages and reads the project's status;
// a tampered or expired link shows the refusal page instead. Without a Chromium on the machine
// the suite is reported as skipped, with the reason in its title, never as passed.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chromium, type Browser } from 'playwright-core';
import { startTestPlatform, type Body, type Client, type TestPlatform } from './support/harness.js';
import { newCustomer, newProject, type ProjectBody } from './support/projects.js';

const TTL_VARIABLE = 'FIELDOPS_CLIENT_PAGE_TTL_SECONDS';
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
const suite = CHROMIUM ? describe : describe.skip;
const title = CHROMIUM
  ? 'client page in a browser'
  : 'client page in a browser (skipped: no Chromium at /usr/bin/chromium; apt-get install chromium)';

let platform: TestPlatform;
let api: Client;
let browser: Browser;
let project: ProjectBody;

suite(title, () => {
  beforeAll(async () => {
    platform = await startTestPlatform();
    ({ api } = await platform.tenant('Browser Co'));
    project = await newProject(api, await newCustomer(api, 'Seaside Surveys'), { name: 'Cliff survey' });
    await api.post(`/projects/${project.id}/lifecycle`, { trigger: 'schedule_assigned' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const linkOf = async (): Promise<string> => {
    const pages = (await api.get('/client-pages?kind=project')).body.items as (Body & {
      id: string;
      href: string;
    })[];
    const page = pages.find((candidate) => candidate.id === project.id);
    if (!page) throw new Error('no client page for the project');
    return `${platform.url}${page.href}`;
  };

  it("opens the link and shows the project's status", async () => {
    const page = await browser.newPage();
    const response = await page.goto(await linkOf());
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Cliff survey');
    expect(await page.locator('h1').textContent()).toBe('Cliff survey');
    expect(await page.locator('#status').textContent()).toBe('Scheduled');
    expect(await page.locator('#status').getAttribute('data-status')).toBe('scheduled');
    expect(await page.locator('script, form, input, button').count()).toBe(0);
    await page.close();
  });

  it('refuses a tampered link with the refusal page', async () => {
    const link = await linkOf();
    const tampered = link.replace(/.(?=$)/, (last) => (last === 'A' ? 'B' : 'A'));
    const page = await browser.newPage();
    const response = await page.goto(tampered);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('This page is not available');
    expect(await page.content()).not.toContain('Cliff survey');
    await page.close();
  });

  it('refuses an expired link, saying it expired', async () => {
    // A platform whose links live one second: the link is minted, then opened after it expired.
    process.env[TTL_VARIABLE] = '1';
    const shortLived = await startTestPlatform().finally(() => delete process.env[TTL_VARIABLE]);
    try {
      const { api: shortApi } = await shortLived.tenant('Short Links Co');
      await newProject(shortApi, await newCustomer(shortApi, 'Brief Ltd'), { name: 'Brief survey' });
      const pages = (await shortApi.get('/client-pages?kind=project')).body.items as { href: string }[];
      const link = `${shortLived.url}${pages[0]?.href ?? ''}`;
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const page = await browser.newPage();
      const response = await page.goto(link);
      expect(response?.status()).toBe(404);
      expect(await page.locator('p').first().textContent()).toContain('expired');
      expect(await page.content()).not.toContain('Brief survey');
      await page.close();
    } finally {
      await shortLived.stop();
    }
  });
});
