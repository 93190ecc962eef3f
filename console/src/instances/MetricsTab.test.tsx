import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { MetricSeries } from '../api/types';
import { runningInstance } from '../test/fixtures';
import { fakeApi, json, renderWithProviders, eventually } from '../test/render';
import InstanceDetailPage from './InstanceDetailPage';
import MetricsTab, { formatBytesPerSecond } from './MetricsTab';

const NOW = new Date('2026-11-23T10:00:00Z');
const path = `GET /instances/${runningInstance.id}/metrics`;

function metrics(series: MetricSeries['series'], hours = 1): MetricSeries {
  return {
    instanceId: runningInstance.id,
    from: new Date(NOW.getTime() - hours * 3_600_000).toISOString(),
    to: NOW.toISOString(),
    step: 10,
    series,
  };
}

const points = (...values: number[]) =>
  values.map((v, i) => ({ t: new Date(NOW.getTime() - (values.length - i) * 10_000).toISOString(), v }));

function chart(name: string) {
  return createWrapper(document.body).findLineChart(`[data-testid="metrics-chart-${name}"]`)!;
}

function query(request: Request) {
  return Object.fromEntries(new URL(request.url).searchParams);
}

/** The tab with its refresh interval driven by the test, once its first request is out. */
async function renderWithClock(api: ReturnType<typeof fakeApi>) {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(NOW);
  renderWithProviders(<MetricsTab instanceId={runningInstance.id} />, { api });
  await waitFor(() => expect(api.calls).toHaveLength(1));
}

describe('metrics tab', () => {
  beforeEach(() => {
    // Only Date: the queries' timers stay real.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('asks for every charted metric over the last hour, then over the range chosen', async () => {
    const api = fakeApi({ [path]: metrics([]) });
    renderWithProviders(<MetricsTab instanceId={runningInstance.id} />, { api });
    await waitFor(() => expect(api.calls).toHaveLength(1));
    expect(query(api.calls[0])).toEqual({
      names:
        'bytesInPerSec,bytesOutPerSec,produceRequestsPerSec,fetchRequestsPerSec,produceLatencyP50Ms,produceLatencyP99Ms,partitions,underReplicatedPartitions,offlinePartitions',
      from: '2026-11-23T09:00:00.000Z',
      to: '2026-11-23T10:00:00.000Z',
    });

    const picker = createWrapper(document.body).findDateRangePicker('[data-testid="metrics-range"]')!;
    act(() => picker.openDropdown());
    const options = picker.findDropdown()!.findRelativeRangeRadioGroup()!;
    act(() => options.findInputByValue('last-24h')!.click());
    act(() => picker.findDropdown()!.findApplyButton().click());

    await waitFor(() => expect(api.calls).toHaveLength(2));
    expect(query(api.calls[1])).toMatchObject({ from: '2026-11-22T10:00:00.000Z', to: '2026-11-23T10:00:00.000Z' });
    expect(picker.findTrigger().getElement().textContent).toContain('Last 24 hours');
  });

  it('refreshes a relative range every 10 s, moving its window', async () => {
    const api = fakeApi({ [path]: metrics([]) });
    await renderWithClock(api);
    act(() => vi.advanceTimersByTime(10_000));
    await waitFor(() => expect(api.calls).toHaveLength(2));
    expect(query(api.calls[1])).toMatchObject({ from: '2026-11-23T09:00:10.000Z', to: '2026-11-23T10:00:10.000Z' });
  });

  it('asks for a fixed window as chosen, and does not refresh it', async () => {
    const api = fakeApi({ [path]: metrics([]) });
    await renderWithClock(api);
    const picker = createWrapper(document.body).findDateRangePicker('[data-testid="metrics-range"]')!;
    act(() => picker.openDropdown());
    const dropdown = picker.findDropdown()!;
    const modes = dropdown.findSelectionModeSwitch();
    act(() => modes.findModesAsSegments().findSegmentById('absolute')!.click());
    act(() => dropdown.findStartDateInput()!.setInputValue('2026/11/20'));
    act(() => dropdown.findStartTimeInput()!.setInputValue('08:00:00'));
    act(() => dropdown.findEndDateInput()!.setInputValue('2026/11/21'));
    act(() => dropdown.findEndTimeInput()!.setInputValue('08:00:00'));
    act(() => dropdown.findApplyButton().click());
    await waitFor(() => expect(api.calls).toHaveLength(2));
    expect(query(api.calls[1])).toMatchObject({
      from: new Date('2026-11-20T08:00:00').toISOString(),
      to: new Date('2026-11-21T08:00:00').toISOString(),
    });
    act(() => vi.advanceTimersByTime(30_000));
    await act(async () => undefined);
    expect(api.calls).toHaveLength(2);
  });

  it('draws each chart’s series from the answer', async () => {
    const api = fakeApi({
      [path]: metrics([
        { name: 'bytesInPerSec', unit: 'bytes/s', points: points(20_971_520, 21_102_592) },
        { name: 'bytesOutPerSec', unit: 'bytes/s', points: points(41_943_040, 42_205_184) },
        { name: 'produceLatencyP99Ms', unit: 'ms', points: points(12.5, 13.1) },
      ]),
    });
    renderWithProviders(<MetricsTab instanceId={runningInstance.id} />, { api });
    await eventually(() => expect(chart('bytes').findLegend()).not.toBeNull());
    const legend = (name: string) => chart(name).findLegend()!.findItems().map((i) => i.getElement().textContent?.trim());
    expect(legend('bytes')).toEqual(['Bytes in', 'Bytes out']);
    expect(legend('latency')).toEqual(['p50', 'p99']);
    const drawn = chart('bytes').findSeries().map((s) => s.getElement());
    expect(drawn.map((g) => g.getAttribute('aria-label'))).toEqual(['Bytes in', 'Bytes out']);
    expect(drawn.every((g) => g.querySelector('path')?.getAttribute('d')?.startsWith('M'))).toBe(true);
    expect(chart('requests').findStatusContainer()!.getElement().textContent).toContain('No data yet');
    expect(screen.getByTestId('metrics-peak-bytesInPerSec').dataset.value).toBe('21102592');
    expect(screen.getByTestId('metrics-peak-bytesInPerSec').textContent).toBe('Bytes in: peak 20.13 MiB/s, latest 20.13 MiB/s');
    expect(screen.getByTestId('metrics-peak-produceLatencyP99Ms').textContent).toBe('p99: peak 13.1 ms, latest 13.1 ms');
    expect(screen.queryByTestId('metrics-peak-produceRequestsPerSec')).toBeNull();
  });

  it('shows the empty state when the brokers have reported nothing', async () => {
    const api = fakeApi({ [path]: metrics([{ name: 'bytesInPerSec', unit: 'bytes/s', points: [] }]) });
    renderWithProviders(<MetricsTab instanceId={runningInstance.id} />, { api });
    for (const name of ['bytes', 'requests', 'latency', 'partitions']) {
      await eventually(() => expect(chart(name).findStatusContainer()!.getElement().textContent).toContain('No data yet'));
    }
    expect(screen.getByTestId('metrics-tab').textContent).toContain('Brokers report every 10 s.');
  });

  it('shows the API’s error in each chart', async () => {
    const problem = { type: 'about:blank', title: 'Bad request', status: 400, detail: 'step must be a multiple of 10', requestId: 'r-1' };
    const api = fakeApi({ [path]: () => json(problem, 400) });
    renderWithProviders(<MetricsTab instanceId={runningInstance.id} />, { api });
    await waitFor(() =>
      expect(chart('bytes').findStatusContainer()!.getElement().textContent).toContain('step must be a multiple of 10 (request r-1)'),
    );
  });

  it('is a tab of the instance page, asked for only once opened', async () => {
    const api = fakeApi({ [`GET /instances/${runningInstance.id}`]: runningInstance, [path]: metrics([]) });
    renderWithProviders(
      <Routes>
        <Route path="/instances/:instanceId" element={<InstanceDetailPage />} />
      </Routes>,
      { api, route: `/instances/${runningInstance.id}` },
    );
    await waitFor(() => expect(screen.getByTestId('instance-name').textContent).toBe('orders-prod'));
    const metricsCalls = () => api.calls.filter((r) => r.url.includes('/metrics'));
    expect(metricsCalls()).toHaveLength(0);
    act(() => createWrapper(document.body).findTabs()!.findTabLinkById('metrics')!.click());
    await waitFor(() => expect(screen.getByTestId('metrics-tab')).toBeTruthy());
    await waitFor(() => expect(metricsCalls()).toHaveLength(1));
  });

  it('formats throughput in binary units per second', () => {
    expect(formatBytesPerSecond(512)).toBe('512 B/s');
    expect(formatBytesPerSecond(1536)).toBe('1.5 KiB/s');
    expect(formatBytesPerSecond(20_971_520)).toBe('20 MiB/s');
  });
});
