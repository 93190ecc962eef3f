import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { fakeApi, json, renderWithProviders } from '../test/render';
import RegisterPage from './RegisterPage';

const reference = '3c7e9a14-5b2d-4f80-9e61-a4d2c8b07f35';
const registration = {
  reference,
  customerAwsAccountId: '444455556666',
  licenseArn: 'arn:aws:license-manager::123456789012:license:l-0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  customerIdentifier: null,
  productCode: 'keel-local-development',
  expiresAt: '2026-11-25T19:42:10Z',
  subscriptionId: null,
  linkedAt: null,
};
const problem = (status: number, kind: string, message: string) =>
  json({ type: `https://keel.dev/problems/${kind}`, title: kind, status, detail: message, errors: [{ field: 'reference', message }] }, status);

function renderRegister(
  role: 'admin' | 'editor' | 'viewer',
  api: ReturnType<typeof fakeApi>,
  route = `/register?reference=${reference}`,
  more: Partial<Parameters<typeof renderWithProviders>[1]> = {},
) {
  return renderWithProviders(
    <Routes>
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/billing" element={<div data-testid="billing-page" />} />
    </Routes>,
    { role, api, route, ...more },
  );
}

describe('registration from AWS Marketplace', () => {
  it('shows the subscription and links it for an admin, then goes to Billing', async () => {
    const api = fakeApi({
      [`GET /marketplace/registrations/${reference}`]: registration,
      'POST /marketplace/registrations': () => json({ ...registration, subscriptionId: '9d2f4b61-7a3c-4e85-b0d9-1c6e8a2f5b47', linkedAt: '2026-11-25T18:44:03Z' }, 201),
    });
    renderRegister('admin', api);

    await waitFor(() => expect(screen.getByTestId('register-account').textContent).toBe('444455556666'));
    expect(screen.getByTestId('register-licence').textContent).toBe(registration.licenseArn);
    await userEvent.click(screen.getByTestId('register-link'));

    await waitFor(() => expect(screen.getByTestId('billing-page')).toBeTruthy());
    const post = api.calls.find((c) => c.method === 'POST')!;
    expect(await post.json()).toEqual({ reference });
    expect(post.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('tells a non-admin who can see and link it, without asking the API, and offers no button', async () => {
    const api = fakeApi({});
    renderRegister('editor', api);

    await waitFor(() => expect(screen.getByTestId('register-state').textContent).toContain('Only an admin of acme'));
    expect(screen.getByTestId('register-state').textContent).toContain('You are editor in acme');
    expect(screen.getByTestId('register-state').textContent).toContain('sign in here as an admin of acme');
    expect(screen.queryByTestId('register-link')).toBeNull();
    expect(screen.queryByTestId('register-account')).toBeNull();
    expect(api.calls).toHaveLength(0);
  });

  it('offers the other organizations the user administers, and comes back to the same registration there', async () => {
    const switched: [string, string | undefined][] = [];
    renderRegister('editor', fakeApi({}), undefined, {
      memberships: [
        { slug: 'acme', role: 'editor' },
        { slug: 'acme-labs', role: 'admin' },
        { slug: 'globex', role: 'viewer' },
      ],
      switchOrganization: (slug, path) => switched.push([slug, path]),
    });

    await waitFor(() => expect(screen.getByTestId('register-state')).toBeTruthy());
    const select = createWrapper(document.body).findSelect('[data-testid="register-organization"]')!;
    act(() => select.openDropdown());
    expect(select.findDropdown().findOptions().map((o) => o.getElement().textContent)).toEqual(['acme-labs']);
    act(() => select.selectOptionByValue('acme-labs'));

    expect(switched).toEqual([['acme-labs', `/register?reference=${reference}`]]);
  });

  it('says an expired registration has expired and how to get a new one', async () => {
    renderRegister('admin', fakeApi({
      [`GET /marketplace/registrations/${reference}`]: () => problem(410, 'registration-expired', 'This registration expired at 2026-11-25T19:42:10Z.'),
    }));

    await waitFor(() => expect(screen.getByTestId('register-state').textContent).toContain('This registration has expired'));
    expect(screen.getByTestId('register-state').textContent).toContain('Set up your account again');
    expect(screen.queryByTestId('register-link')).toBeNull();
  });

  it('says a registration opened in another browser belongs to the browser AWS sent, and how to start again here', async () => {
    renderRegister('admin', fakeApi({
      [`GET /marketplace/registrations/${reference}`]: () =>
        problem(403, 'registration-other-browser', 'This registration can be seen and linked only in the browser AWS Marketplace sent to Keel with it.'),
    }));

    await waitFor(() => expect(screen.getByTestId('register-state').textContent).toContain('opened in another browser'));
    expect(screen.getByTestId('register-state').textContent).toContain('only in the browser AWS Marketplace sent');
    expect(screen.getByTestId('register-state').textContent).toContain('Set up your account again');
    expect(screen.queryByTestId('register-link')).toBeNull();
  });

  it('says a used registration is already linked', async () => {
    renderRegister('admin', fakeApi({
      [`GET /marketplace/registrations/${reference}`]: () => problem(409, 'registration-used', 'This subscription is already linked to acme; see Billing.'),
    }));

    await waitFor(() => expect(screen.getByTestId('register-state').textContent).toContain('already linked to acme'));
  });

  it('shows why a link was refused and stays on the page', async () => {
    renderRegister('admin', fakeApi({
      [`GET /marketplace/registrations/${reference}`]: registration,
      'POST /marketplace/registrations': () => problem(409, 'license-already-linked', 'This subscription’s licence is already linked to an organization in Keel.'),
    }));

    await waitFor(() => expect(screen.getByTestId('register-link')).toBeTruthy());
    await userEvent.click(screen.getByTestId('register-link'));

    await waitFor(() => expect(screen.getByTestId('register-link-error').textContent).toContain('already linked to an organization'));
    expect(screen.queryByTestId('billing-page')).toBeNull();
  });

  it('asks for the link from AWS Marketplace when the page has no reference', async () => {
    const api = fakeApi({});
    renderRegister('admin', api, '/register');

    expect(screen.getByTestId('register-state').textContent).toContain('Set up your account again');
    expect(api.calls).toHaveLength(0);
  });
});
