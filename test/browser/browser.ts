import { after } from 'node:test';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { chromiumMissing, launchChromium } from '../../scripts/chromium.js';

/** One Chromium for a test file's tests, or why they are skipped. */
export type TestBrowser = { browser: Browser; skip: false } | { browser: undefined; skip: string };

/**
 * Launches Chromium once for a test file (call it at the file's top level) and closes it after the
 * file's tests. Without Chromium the
 * tests are skipped with the reason, except in CI (CI=true), where that is a failure: CI must test
 * the reference page in a real browser, and `.ci/run` installs Debian's `chromium`.
 */
export async function launchTestBrowser(): Promise<TestBrowser> {
  const missing = await chromiumMissing();
  if (missing !== undefined) {
    if (process.env['CI'] === 'true') throw new Error(`${missing}. In CI this is a failure, not a skip.`);
    return { browser: undefined, skip: missing };
  }
  const browser = await launchChromium();
  after(() => browser.close());
  return { browser, skip: false };
}

/** A fresh context (its own cookies, storage and cache) and one page in it; close the context after the test. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options);
  return { context, page: await context.newPage() };
}

/** What a page did that a clean page never does: console errors, uncaught exceptions, and requests that left its origin. */
export interface PageProblems {
  consoleErrors: string[];
  pageErrors: string[];
  foreignRequests: string[];
}

/** Starts recording a page's problems; the returned lists fill as the page runs. */
export function watchPage(page: Page, origin: string): PageProblems {
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], foreignRequests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.pageErrors.push(String(error)));
  page.on('request', (request) => {
    const url = request.url();
    // data: URLs (such as the inline favicon) never reach a network.
    if (!url.startsWith('data:') && new URL(url).origin !== origin) problems.foreignRequests.push(url);
  });
  return problems;
}
