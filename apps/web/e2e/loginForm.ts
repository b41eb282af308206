import type { Page } from 'playwright-core';

/**
 * Logging in as a person does, through the login form and its real ALTCHA robot check (made cheap with
 * CAPTCHA_MAX_NUMBER), for the browser tests that need the server to see the browser log in (its User-Agent,
 * its address) rather than a seeded session cookie.
 */
export const PASSWORD = 'correct horse battery';

/** Ticks the robot check and waits until the browser has solved the proof of work. */
export async function solveRobotCheck(page: Page): Promise<void> {
  // The label, as a person would: the styled checkbox's tick mark lies over the <input>.
  await page.locator('altcha-widget label').first().click();
  await page.locator('altcha-widget [data-state="verified"]').waitFor({ timeout: 30_000 });
}

/** Logs in with the login form and waits for the dashboard it lands on. */
export async function logInWithForm(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await solveRobotCheck(page);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/dashboard');
}
