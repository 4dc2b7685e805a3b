// Smoke test of the built client served by the real service (LARDER_URL, default :8080).
// The full journey (register → verify → import → scale → cook → cookbooks → backup) builds on
// the helpers in browser.mjs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, screenshot, serviceUp } from './browser.mjs';

const up = await serviceUp();

describe('web client smoke', { skip: up ? false : 'the service is not running at LARDER_URL' }, () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  it('serves the app shell and the login form with labelled fields', async () => {
    const { page, errors, context } = await newPage(browser);
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(await page.getByLabel('Email').getAttribute('data-testid'), 'login-email');
    assert.equal(await page.getByLabel('Password').getAttribute('data-testid'), 'login-password');
    await screenshot(page, 'login');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('shows the recipe list to anonymous visitors (public recipes) on a phone', async () => {
    const { page, errors, context } = await newPage(browser, { width: 390, height: 844 });
    await page.goto('/recipes');
    await page.getByRole('heading', { name: 'Recipes' }).waitFor();
    await page.getByTestId('recipe-list-total').filter({ hasText: /recipe/ }).waitFor();
    await screenshot(page, 'recipes-phone-anonymous');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('a wrong password shows the API error', async () => {
    const { page, context } = await newPage(browser);
    await page.goto('/login');
    await page.getByTestId('login-email').fill('nobody@example.invalid');
    await page.getByTestId('login-password').fill('Wrong-passw0rd');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('form-error').waitFor();
    assert.match(await page.getByTestId('form-error').innerText(), /\S/);
    await context.close();
  });
});
