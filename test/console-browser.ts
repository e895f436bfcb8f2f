import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it when missing), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  // Root in a container has no user namespace for Chromium's sandbox; the pages are our own.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** The two layouts of contract section 11. */
export const LAYOUTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/**
 * With CONSOLE_SCREENSHOTS=<dir> (docs/console when refreshing the committed ones), a full-page picture of
 * the page at both layouts, `<name>-desktop.png` and `<name>-phone.png`; otherwise nothing.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CONSOLE_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const size = page.viewportSize();
  for (const [layout, viewport] of Object.entries(LAYOUTS)) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: join(dir, `${name}-${layout}.png`), fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}
