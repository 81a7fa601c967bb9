// Debian's Chromium for the browser tests, driven by playwright-core (which downloads no browser),
// with the flags that keep it off the network and quiet on a loaded CI machine. Screenshots go to
// test-artifacts/browser (gitignored; FIELDOPS_TEST_ARTIFACTS moves it), whose path CI prints.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));

/** A suite's title, saying why it is skipped when there is no Chromium. */
export const browserSuiteTitle = (title: string): string =>
  CHROMIUM ? title : `${title} (skipped: no Chromium at /usr/bin/chromium; apt-get install chromium)`;

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

export const ARTIFACTS_DIR = resolve(process.env['FIELDOPS_TEST_ARTIFACTS'] ?? 'test-artifacts', 'browser');

/** A full-page screenshot named after what it shows; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The text of the first element matching `selector`, once it has any (pages fill in after a call). */
export async function textOf(page: Page, selector: string): Promise<string> {
  const filled = page.locator(selector).first().filter({ hasText: /\S/ });
  await filled.waitFor();
  return (await filled.textContent()) ?? '';
}
