// Shared set-up for end-to-end tests: Debian's Chromium driven by playwright-core.
// No browser is downloaded (`npx playwright install` does not work here); the path and the
// flags below are the ones this machine needs (root needs --no-sandbox; the network is closed,
// so background services must be off or Chromium keeps failing to reach Google's hosts).
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const BASE_URL = (process.env.LARDER_URL ?? 'http://localhost:8080').replace(/\/$/, '');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const here = dirname(fileURLToPath(import.meta.url));
export const SCREENSHOT_DIR = process.env.E2E_SCREENSHOTS ?? join(here, 'screenshots');

/** Launches headless Chromium. */
export function launch() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** A fresh context (own cookies) and page on BASE_URL; viewport defaults to desktop. */
export async function newPage(browser, { width = 1280, height = 900, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width, height }, colorScheme });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  return { context, page, errors };
}

/** Saves a full-page screenshot as SCREENSHOT_DIR/name.png. */
export async function screenshot(page, name) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** True when the service answers /api/health. */
export async function serviceUp() {
  try {
    const res = await fetch(`${BASE_URL}/api/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** Signs in through the login form and waits for the recipe list. */
export async function signIn(page, email, password) {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/recipes(\?|$)/);
}
