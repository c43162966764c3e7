import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

/** Debian's Chromium (package `chromium`); playwright-core drives it, and no browser is ever downloaded. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Flags of every launch: no sandbox (CI containers often run as root, where the sandbox refuses to
 * start), no GPU (there is none), and no traffic of Chromium's own (updates, field trials, first-run
 * pages), so the only requests a test sees are the page's.
 */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] as const;

/** Why Chromium cannot be launched here, or undefined when it can. */
export async function chromiumMissing(): Promise<string | undefined> {
  try {
    await access(CHROMIUM_PATH, constants.X_OK);
    return undefined;
  } catch {
    return `Chromium not found at ${CHROMIUM_PATH}; install the Debian package \`chromium\` (apt-get install chromium) to run the browser tests`;
  }
}

/** Launches Debian's Chromium headless, with a fresh temporary profile that playwright-core deletes at `close()`. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
}
