import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { BillingSubscription, BudgetStatus, MarketplaceSubscription, MeteringRecord } from '../api/types';
import { catalogV1, usage } from '../test/fixtures';
import { eventually, fakeApi, json, renderWithProviders } from '../test/render';
import BillingPage from './BillingPage';
import { recentMonths } from './months';

const noBudget: BudgetStatus = {
  monthlyAkuHours: null,
  maxAkuPerInstance: null,
  maxAkuPerOrganization: null,
  month: { from: '2026-11-01T00:00:00Z', to: '2026-12-01T00:00:00Z', akuHoursUsed: 2486 },
  budgetUsedFraction: null,
  trial: { akuHours: 360, akuHoursUsed: 126.25, maxAku: 12 },
};

/** The budget with a monthly limit of which `fraction` is used. */
const monthly = (fraction: number): BudgetStatus => ({
  ...noBudget,
  monthlyAkuHours: 10000,
  month: { ...noBudget.month, akuHoursUsed: fraction * 10000 },
  budgetUsedFraction: fraction,
});

const contract: MarketplaceSubscription = {
  state: 'ACTIVE',
  productCode: '4q9rlwmz3y8k2d0c6bn1xv7ep',
  customerAwsAccountId: '294406891311',
  licenseArn: 'arn:aws:license-manager::294406891311:license:l-0f1e2d3c4b5a69788',
  customerIdentifier: null,
  stateChangedAt: '2026-11-20T09:14:03Z',
  entitlement: { payAsYouGo: false, maxAku: 12, readAt: '2026-11-20T09:14:09Z' },
  endedAt: null,
  graceEndsAt: null,
};
const onMarketplace = (subscription: MarketplaceSubscription): BillingSubscription => ({ plan: 'MARKETPLACE', subscription });

const wrapper = () => createWrapper(document.body);
const budgetInput = (key: string) => wrapper().findInput(`[data-testid="budget-${key}"]`)!;

describe('billing', () => {
  it('shows the month’s AKU-hours in all and by instance', async () => {
    renderWithProviders(<BillingPage />, { api: fakeApi({ 'GET /billing/usage': usage, 'GET /billing/budget': noBudget }) });
    await waitFor(() => expect(screen.getByTestId('billing-total').textContent).toBe('2,486'));
    expect(screen.getByTestId('billing-aku-hours-orders').textContent).toBe('2,484');
    const rows = createWrapper(document.body).findTable()!.findRows();
    expect(rows).toHaveLength(2);
    expect(rows[0].getElement().textContent).toMatch(/3 AKU, .* – .*6 AKU, .* – now/);
  });

  it('asks for the chosen month’s window', async () => {
    const api = fakeApi({ 'GET /billing/usage': usage, 'GET /billing/budget': noBudget });
    const usageCalls = () => api.calls.filter((c) => new URL(c.url).pathname.endsWith('/usage'));
    renderWithProviders(<BillingPage />, { api });
    await waitFor(() => expect(usageCalls()).toHaveLength(1));
    const current = new URL(usageCalls()[0].url).searchParams;
    expect(current.get('from')).toBe(recentMonths(new Date(), 1)[0].from);
    expect(current.get('to')).toBeNull();

    const select = createWrapper(document.body).findSelect('[data-testid="billing-month"]')!;
    act(() => select.openDropdown());
    act(() => select.selectOptionByValue(recentMonths(new Date(), 2)[1].from));
    await waitFor(() => expect(usageCalls()).toHaveLength(2));
    const previous = new URL(usageCalls()[1].url).searchParams;
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

  it('shows the guardrails, this month’s use and the trial to every member, and no edit to a viewer', async () => {
    renderWithProviders(<BillingPage />, { role: 'viewer', api: fakeApi({ 'GET /billing/usage': usage, 'GET /billing/budget': monthly(0.5) }) });
    await waitFor(() => expect(screen.getByTestId('budget-monthly').textContent).toBe('10,000'));
    expect(screen.getByTestId('budget-used').textContent).toBe('5,000 AKU-hours (50 % of the budget)');
    expect(screen.getByTestId('budget-per-instance').textContent).toBe('No limit');
    expect(screen.getByTestId('budget-trial').textContent).toContain('126.3 of 360 AKU-hours used, at most 12 AKU');
    expect(screen.queryByTestId('budget-edit')).toBeNull();
    expect(screen.queryByTestId('budget-alert')).toBeNull();
  });

  it('warns from 80 % of the monthly budget and says when it is used up', async () => {
    const { unmount } = renderWithProviders(<BillingPage />, { api: fakeApi({ 'GET /billing/usage': usage, 'GET /billing/budget': monthly(0.8) }) });
    const warning = await screen.findByTestId('budget-alert');
    expect(wrapper().findAlert('[data-testid="budget-alert"]')!.getElement().textContent).toContain('80 % of this month’s budget is used');
    expect(warning.textContent).toContain('8,000 of 10,000 AKU-hours');
    unmount();

    renderWithProviders(<BillingPage />, { api: fakeApi({ 'GET /billing/usage': usage, 'GET /billing/budget': monthly(1.02) }) });
    const reached = await screen.findByTestId('budget-alert');
    expect(reached.textContent).toContain('This month’s budget is used up');
    expect(reached.textContent).toContain('10,200 of 10,000 AKU-hours');
  });

  it('lets an admin set the guardrails, leaving empty fields without a limit, and shows the API’s field errors', async () => {
    const sent: unknown[] = [];
    const refusal = {
      type: 'https://keel.dev/problems/validation-failed',
      title: 'Request is invalid',
      status: 400,
      errors: [{ field: 'maxAkuPerOrganization', message: 'must be at least maxAkuPerInstance (12)' }],
    };
    const api = fakeApi({
      'GET /billing/usage': usage,
      'GET /billing/budget': noBudget,
      'PUT /billing/budget': async (request: Request) => {
        const body = await request.json();
        sent.push(body);
        return sent.length === 1 ? json(refusal, 400) : json({ ...noBudget, ...body });
      },
    });
    renderWithProviders(<BillingPage />, { role: 'admin', api });
    fireEvent.click(await screen.findByTestId('budget-edit'));
    act(() => budgetInput('maxAkuPerInstance').setInputValue('12'));
    act(() => budgetInput('maxAkuPerOrganization').setInputValue('6'));
    act(() => wrapper().findButton('[data-testid="budget-save"]')!.click());
    await eventually(() =>
      expect(wrapper().findFormField('[data-testid="budget-form-maxAkuPerOrganization"]')?.findError()?.getElement().textContent).toContain(
        'at least maxAkuPerInstance',
      ),
    );
    expect(sent[0]).toEqual({ maxAkuPerInstance: 12, maxAkuPerOrganization: 6 });

    act(() => budgetInput('maxAkuPerOrganization').setInputValue('24'));
    act(() => wrapper().findButton('[data-testid="budget-save"]')!.click());
    await waitFor(() => expect(screen.getByTestId('budget-per-organization').textContent).toBe('24'));
    expect(sent[1]).toEqual({ maxAkuPerInstance: 12, maxAkuPerOrganization: 24 });
    const put = api.calls.filter((c) => c.method === 'PUT');
    expect(put[0].headers.get('Idempotency-Key')).toBeTruthy();
  });

  it('refuses what is not a whole number from 1 before asking the API', async () => {
    const api = fakeApi({ 'GET /billing/usage': usage, 'GET /billing/budget': noBudget });
    renderWithProviders(<BillingPage />, { role: 'admin', api });
    fireEvent.click(await screen.findByTestId('budget-edit'));
    act(() => budgetInput('monthlyAkuHours').setInputValue('0'));
    act(() => wrapper().findButton('[data-testid="budget-save"]')!.click());
    await eventually(() =>
      expect(wrapper().findFormField('[data-testid="budget-form-monthlyAkuHours"]')?.findError()?.getElement().textContent).toContain('whole number'),
    );
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('shows the Marketplace subscription the organization pays through, and nothing of it on the trial', async () => {
    const { unmount } = renderWithProviders(<BillingPage />, {
      api: fakeApi({ 'GET /billing/usage': usage, 'GET /billing/budget': noBudget, 'GET /billing/subscription': onMarketplace(contract) }),
    });
    await waitFor(() => expect(screen.getByTestId('subscription-state').textContent).toBe('Active'));
    expect(screen.getByTestId('subscription-account').textContent).toBe('294406891311');
    expect(screen.getByTestId('subscription-entitlement').textContent).toBe('Up to 12 AKU at once');
    expect(screen.getByTestId('subscription').textContent).toContain(contract.licenseArn);
    expect(screen.queryByTestId('subscription-alert')).toBeNull();
    unmount();

    const api = fakeApi({ 'GET /billing/usage': usage, 'GET /billing/budget': noBudget, 'GET /billing/subscription': { plan: 'TRIAL', subscription: null } });
    renderWithProviders(<BillingPage />, { api });
    await waitFor(() => expect(api.calls.some((c) => new URL(c.url).pathname.endsWith('/billing/subscription'))).toBe(true));
    await screen.findByTestId('budget-trial');
    expect(screen.queryByTestId('subscription')).toBeNull();
  });

  it('says what an ended subscription still allows, until when, and that its instances are deleted then with their data kept', async () => {
    const ended = { ...contract, state: 'ENDED' as const, endedAt: '2026-11-22T00:00:00Z', graceEndsAt: '2026-11-29T00:00:00Z' };
    renderWithProviders(<BillingPage />, {
      api: fakeApi({ 'GET /billing/usage': usage, 'GET /billing/budget': noBudget, 'GET /billing/subscription': onMarketplace(ended) }),
    });
    const alert = await screen.findByTestId('subscription-alert');
    expect(alert.textContent).toContain('No new instances or scale-ups');
    expect(alert.textContent).toContain('keep running until');
    expect(alert.textContent).toContain('each instance is deleted, deletion protection or not, and its data bucket is kept for the retention period');
    expect(screen.getByTestId('subscription-state').textContent).toBe('Ended');
  });

  it('estimates the month’s charges at the listing’s price, so far and projected, saying what the projection assumes', async () => {
    renderWithProviders(<BillingPage />, {
      api: fakeApi({ 'GET /billing/usage': usage, 'GET /billing/budget': noBudget, 'GET /sizing/catalog': { ...catalogV1, listing: { usdPerAkuHour: 0.25 } } }),
    });
    await waitFor(() => expect(screen.getByTestId('charges-so-far').textContent).toBe('$621.50'));
    // 6 AKU still running for the 8 days left of November after the window's end.
    expect(screen.getByTestId('charges-projected').textContent).toBe('$909.50');
    expect(screen.getByTestId('charges-assumption').textContent).toBe('Assumes the 6 AKU running now keep running, unchanged, for the 192 hours left in the month.');
    expect(screen.getByTestId('charges').textContent).toContain('listing’s price of $0.25 per AKU-hour. AWS bills what Keel meters');
  });

  it('says the trial is not billed beside what its usage would cost', async () => {
    renderWithProviders(<BillingPage />, {
      api: fakeApi({
        'GET /billing/usage': usage,
        'GET /billing/budget': noBudget,
        'GET /billing/subscription': { plan: 'TRIAL', subscription: null },
        'GET /sizing/catalog': { ...catalogV1, listing: { usdPerAkuHour: 0.125 } },
      }),
    });
    await waitFor(() => expect(screen.getByTestId('charges').textContent).toContain('The trial is not billed'));
    expect(screen.getByTestId('charges').textContent).toContain('$0.125 per AKU-hour');
    expect(screen.getByTestId('charges-so-far').textContent).toBe('$310.75');
  });

  it('says when the listing’s price cannot be loaded', async () => {
    renderWithProviders(<BillingPage />, { api: fakeApi({ 'GET /billing/usage': usage, 'GET /billing/budget': noBudget }) });
    expect((await screen.findByTestId('charges-load-error')).textContent).toContain('price could not be loaded');
  });

  it('charts the month’s AKU-hours by day, and a chosen day’s by hour, one bar per instance', async () => {
    renderWithProviders(<BillingPage />, { api: fakeApi({ 'GET /billing/usage': usage, 'GET /billing/budget': noBudget }) });
    const chart = () => wrapper().findBarChart('[data-testid="usage-chart"]')!;
    await eventually(() => expect(chart().findLegend()).not.toBeNull());
    expect(chart().findLegend()!.findItems().map((i) => i.getElement().textContent?.trim())).toEqual(['orders', 'clicks']);
    expect(chart().findXTicks().map((t) => t.getElement().textContent)).toContain('30 Nov');

    act(() => wrapper().findSegmentedControl('[data-testid="usage-granularity"]')!.findSegments()[1].click());
    const day = wrapper().findSelect('[data-testid="usage-day"]')!;
    // The window ends at midnight on the 23rd: its last day is the 22nd.
    expect(day.findTrigger().getElement().textContent).toBe('22 Nov');
    act(() => day.openDropdown());
    act(() => day.selectOptionByValue('2026-11-02T00:00:00.000Z'));
    expect(day.findTrigger().getElement().textContent).toBe('2 Nov');
    expect(chart().findXTicks().map((t) => t.getElement().textContent)).toContain('23:00');
  });

  it('shows an empty chart for a month nothing ran in', async () => {
    renderWithProviders(<BillingPage />, { api: fakeApi({ 'GET /billing/usage': { ...usage, akuHours: 0, instances: [] }, 'GET /billing/budget': noBudget }) });
    await eventually(() =>
      expect(wrapper().findBarChart('[data-testid="usage-chart"]')!.findStatusContainer()!.getElement().textContent).toContain('No instance ran in this time'),
    );
  });

  describe('the metering ledger', () => {
    const record = (hour: string, fields: Partial<MeteringRecord> = {}): MeteringRecord => ({
      id: crypto.randomUUID(),
      subscriptionId: '5f0e2d7c-3b1a-4c9e-8d6f-1a2b3c4d5e6f',
      customerAwsAccountId: contract.customerAwsAccountId,
      licenseArn: contract.licenseArn,
      customerIdentifier: null,
      dimension: 'aku_minutes',
      hour,
      quantity: 360,
      state: 'ACCEPTED',
      meteringRecordId: `mr-${hour}`,
      attempts: 1,
      lastError: null,
      createdAt: hour,
      updatedAt: hour,
      ...fields,
    });
    const onMarketplaceApi = (records: unknown) =>
      fakeApi({ 'GET /billing/usage': usage, 'GET /billing/budget': noBudget, 'GET /billing/subscription': onMarketplace(contract), 'GET /billing/metering-records': records });

    it('lists every record of the month, page after page, with AWS’s state, id and the last error', async () => {
      const api = onMarketplaceApi((request: Request) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        return cursor === null
          ? json({ items: [record('2026-11-24T11:00:00Z', { state: 'PENDING', meteringRecordId: null, attempts: 2, lastError: 'ThrottlingException: Rate exceeded' })], nextCursor: 'page-2' })
          : json({ items: [record('2026-11-24T10:00:00Z', { quantity: 300 })], nextCursor: null });
      });
      renderWithProviders(<BillingPage />, { api });
      await waitFor(() => expect(screen.getByTestId('ledger-state-2026-11-24T10:00:00Z').textContent).toBe('Accepted'));
      const asked = api.calls.filter((c) => new URL(c.url).pathname.endsWith('/metering-records')).map((c) => new URL(c.url).searchParams);
      expect(asked.map((q) => [q.get('month'), q.get('cursor')])).toEqual([
        [recentMonths(new Date(), 1)[0].from.slice(0, 7), null],
        [recentMonths(new Date(), 1)[0].from.slice(0, 7), 'page-2'],
      ]);
      const rows = wrapper().findTable('[data-testid="ledger-table"]')!.findRows();
      expect(rows.map((r) => r.getElement().textContent)).toEqual([
        expect.stringMatching(/24 Nov 2026, 11:00.*aku_minutes360Waiting to be sent—2ThrottlingException: Rate exceeded/),
        expect.stringMatching(/24 Nov 2026, 10:00.*aku_minutes300Acceptedmr-2026-11-24T10:00:00Z1—/),
      ]);
    });

    it('says which hours AWS may have billed and which it bills no more', async () => {
      const records = [
        record('2026-11-24T11:00:00Z', { state: 'NOT_SUBSCRIBED', meteringRecordId: null, lastError: 'AWS says the buyer is not subscribed to the product' }),
        record('2026-11-24T10:00:00Z', { state: 'UNKNOWN', meteringRecordId: null, lastError: 'The hour went past AWS Marketplace’s 6-hour window while it was being sent' }),
      ];
      renderWithProviders(<BillingPage />, { api: onMarketplaceApi({ items: records, nextCursor: null }) });
      await waitFor(() => expect(screen.getByTestId('ledger-state-2026-11-24T10:00:00Z').textContent).toBe('Unknown: see the AWS bill'));
      expect(screen.getByTestId('ledger-state-2026-11-24T11:00:00Z').textContent).toBe('Not billed: subscription ended');
    });

    it('says when no hour has been metered, and when the ledger cannot be loaded', async () => {
      const { unmount } = renderWithProviders(<BillingPage />, { api: onMarketplaceApi({ items: [], nextCursor: null }) });
      await eventually(() => expect(wrapper().findTable('[data-testid="ledger-table"]')!.findEmptySlot()!.getElement().textContent).toContain('No metering records'));
      unmount();

      renderWithProviders(<BillingPage />, { api: onMarketplaceApi(() => json({ type: 'about:blank', title: 'Server error', status: 500, detail: 'the database is away' }, 500)) });
      expect((await screen.findByTestId('ledger-load-error')).textContent).toContain('the database is away');
    });

    it('is not asked for on the trial, which meters nothing to AWS', async () => {
      const api = fakeApi({ 'GET /billing/usage': usage, 'GET /billing/budget': noBudget, 'GET /billing/subscription': { plan: 'TRIAL', subscription: null } });
      renderWithProviders(<BillingPage />, { api });
      await screen.findByTestId('budget-trial');
      await waitFor(() => expect(api.calls.some((c) => new URL(c.url).pathname.endsWith('/billing/subscription'))).toBe(true));
      expect(screen.queryByTestId('ledger-table')).toBeNull();
      expect(api.calls.some((c) => new URL(c.url).pathname.endsWith('/metering-records'))).toBe(false);
    });
  });
});
