import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { Usage } from '../api/types';
import { fakeApi, renderWithProviders } from '../test/render';
import BillingPage from './BillingPage';
import { recentMonths } from './months';

const usage: Usage = {
  from: '2026-11-01T00:00:00Z',
  to: '2026-11-23T00:00:00Z',
  akuHours: 2486,
  instances: [
    {
      instanceId: '8e3d1f27-6c4b-4a9e-b0d5-3f2a7c1e9b46',
      name: 'orders',
      akuHours: 2484,
      periods: [
        { aku: 3, from: '2026-11-01T00:00:00Z', to: '2026-11-10T12:00:00Z', running: false },
        { aku: 6, from: '2026-11-10T12:00:00Z', to: '2026-11-23T00:00:00Z', running: true },
      ],
    },
    { instanceId: '1f0c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b', name: 'clicks', akuHours: 2, periods: [{ aku: 4, from: '2026-11-02T00:00:00Z', to: '2026-11-02T00:30:00Z', running: false }] },
  ],
};

describe('billing', () => {
  it('shows the month’s AKU-hours in all and by instance', async () => {
    renderWithProviders(<BillingPage />, { api: fakeApi({ 'GET /billing/usage': usage }) });
    await waitFor(() => expect(screen.getByTestId('billing-total').textContent).toBe('2,486'));
    expect(screen.getByTestId('billing-aku-hours-orders').textContent).toBe('2,484');
    const rows = createWrapper(document.body).findTable()!.findRows();
    expect(rows).toHaveLength(2);
    expect(rows[0].getElement().textContent).toMatch(/3 AKU, .* – .*6 AKU, .* – now/);
  });

  it('asks for the chosen month’s window', async () => {
    const api = fakeApi({ 'GET /billing/usage': usage });
    renderWithProviders(<BillingPage />, { api });
    await waitFor(() => expect(api.calls).toHaveLength(1));
    const current = new URL(api.calls[0].url).searchParams;
    expect(current.get('from')).toBe(recentMonths(new Date(), 1)[0].from);
    expect(current.get('to')).toBeNull();

    const select = createWrapper(document.body).findSelect('[data-testid="billing-month"]')!;
    act(() => select.openDropdown());
    act(() => select.selectOptionByValue(recentMonths(new Date(), 2)[1].from));
    await waitFor(() => expect(api.calls).toHaveLength(2));
    const previous = new URL(api.calls[1].url).searchParams;
    expect(previous.get('from')).toBe(recentMonths(new Date(), 2)[1].from);
    expect(previous.get('to')).toBe(recentMonths(new Date(), 1)[0].from);
  });

  it('lists the current month and the ones before, in UTC', () => {
    const months = recentMonths(new Date('2026-01-15T08:00:00Z'), 3);
    expect(months.map((m) => [m.label, m.from, m.to])).toEqual([
      ['January 2026', '2026-01-01T00:00:00.000Z', undefined],
      ['December 2025', '2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
      ['November 2025', '2025-11-01T00:00:00.000Z', '2025-12-01T00:00:00.000Z'],
    ]);
  });
});
