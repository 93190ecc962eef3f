import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { KafkaTopic } from '../api/types';
import { runningInstance } from '../test/fixtures';
import { eventually, fakeApi, json, renderWithProviders } from '../test/render';
import { TopicsTab } from './TopicsTab';

const base = `/instances/${runningInstance.id}/topics`;
const orders: KafkaTopic = {
  name: 'orders',
  partitions: 12,
  replicationFactor: 1,
  configs: { 'retention.ms': '604800000', 'cleanup.policy': 'delete' },
  retentionMs: 604800000,
  sizeBytes: 73400320,
  status: 'ACTIVE',
  statusMessage: null,
  observedAt: '2026-11-24T10:05:00Z',
};
const clicks: KafkaTopic = { ...orders, name: 'clicks', configs: {}, retentionMs: null, sizeBytes: null, status: 'CREATING', partitions: null, replicationFactor: null, observedAt: null };

const page = () => createWrapper(document.body);
const fieldError = (testId: string) => page().findFormField(`[data-testid="${testId}"]`)?.findError()?.getElement().textContent;
const type = (testId: string, value: string) => act(() => page().findInput(`[data-testid="${testId}"]`)!.setInputValue(value));
const submit = () => act(() => page().findButton('[data-testid="topic-form-submit"]')!.click());
const select = (name: string) => {
  const rows = page().findTable('[data-testid="topics-table"]')!.findRows();
  const index = rows.findIndex((r) => r.getElement().textContent?.includes(name)) + 1;
  act(() => page().findTable('[data-testid="topics-table"]')!.findRowSelectionArea(index)!.click());
};
const listed = { [`GET ${base}`]: { items: [orders, clicks], nextCursor: null } };

describe('Topics tab', () => {
  it('lists topics with partitions, replication, retention and size; viewers get no actions', async () => {
    renderWithProviders(<TopicsTab instance={runningInstance} />, { role: 'viewer', api: fakeApi(listed) });

    await waitFor(() => expect(screen.getByTestId('topic-status-orders').textContent).toContain('Active'));
    const row = page().findTable('[data-testid="topics-table"]')!.findRows().find((r) => r.getElement().textContent?.includes('orders'))!;
    const text = row.getElement().textContent ?? '';
    expect(text).toContain('12');
    expect(text).toContain('7 days');
    expect(text).toContain('70 MiB');
    expect(screen.getByTestId('topic-status-clicks').textContent).toContain('Creating');
    expect(screen.getByTestId('topics-table').textContent).toContain('Brokers’ default');
    expect(screen.queryByTestId('create-topic')).toBeNull();
    expect(screen.queryByTestId('edit-topic')).toBeNull();
  });

  it('creates a topic with its configs in Kafka’s units, and puts the API’s config errors on their fields', async () => {
    const api = fakeApi({
      ...listed,
      [`POST ${base}`]: () =>
        json(
          {
            type: 'https://keel.dev/problems/validation-failed',
            title: 'The request is not valid',
            status: 400,
            errors: [{ field: 'configs.retention.ms', message: 'must be -1 or more' }, { field: 'name', message: 'collides with topic or_ders' }],
          },
          400,
        ),
    });
    renderWithProviders(<TopicsTab instance={runningInstance} />, { api });
    await waitFor(() => expect(screen.getByTestId('topic-status-orders')).toBeTruthy());
    act(() => screen.getByTestId('create-topic').click());

    type('topic-partitions', '0');
    submit();
    expect(fieldError('topic-name-field')).toBe('Enter a name.');
    expect(fieldError('topic-partitions-field')).toBe('Enter a whole number between 1 and 10,000.');
    expect(api.calls.filter((r) => r.method === 'POST')).toHaveLength(0);

    type('topic-name', 'or.ders');
    type('topic-partitions', '6');
    type('topic-retentionHours', '48');
    submit();

    await eventually(() => expect(fieldError('topic-retentionHours-field')).toBe('must be -1 or more'));
    expect(fieldError('topic-name-field')).toBe('collides with topic or_ders');
    const post = api.calls.find((r) => r.method === 'POST')!;
    expect(await post.json()).toEqual({ name: 'or.ders', partitions: 6, replicationFactor: null, configs: { 'retention.ms': '172800000' } });
  });

  it('edits a topic with a merge patch of what changed, and only ever adds partitions', async () => {
    const api = fakeApi({ ...listed, [`PATCH ${base}/orders`]: () => json({ ...orders, status: 'UPDATING' }, 202) });
    renderWithProviders(<TopicsTab instance={runningInstance} />, { api });
    await waitFor(() => expect(screen.getByTestId('topic-status-orders')).toBeTruthy());

    select('clicks');
    // Not on the brokers yet: nothing to edit.
    expect(page().findButton('[data-testid="edit-topic"]')!.isDisabled()).toBe(true);
    select('orders');
    act(() => screen.getByTestId('edit-topic').click());
    expect(page().findInput('[data-testid="topic-retentionHours"]')!.getInputValue()).toBe('168');

    type('topic-partitions', '8');
    submit();
    expect(fieldError('topic-partitions-field')).toBe('Kafka can only add partitions: enter more than 12.');

    type('topic-partitions', '24');
    type('topic-retentionHours', '');
    const cleanup = page().findSelect('[data-testid="topic-cleanupPolicy"]')!;
    act(() => cleanup.openDropdown());
    act(() => cleanup.selectOptionByValue('compact'));
    submit();

    await waitFor(() => expect(api.calls.filter((r) => r.method === 'PATCH')).toHaveLength(1));
    const patch = api.calls.find((r) => r.method === 'PATCH')!;
    expect(patch.headers.get('Content-Type')).toBe('application/merge-patch+json');
    expect(await patch.json()).toEqual({ partitions: 24, configs: { 'retention.ms': null, 'cleanup.policy': 'compact' } });
  });

  it('deletes a topic only once its name is typed', async () => {
    const api = fakeApi({ ...listed, [`DELETE ${base}/orders`]: () => json({ ...orders, status: 'DELETING' }, 202) });
    renderWithProviders(<TopicsTab instance={runningInstance} />, { api });
    await waitFor(() => expect(screen.getByTestId('topic-status-orders')).toBeTruthy());

    select('orders');
    act(() => screen.getByTestId('delete-topic').click());
    const confirm = () => page().findButton('[data-testid="delete-topic-confirm"]')!;
    expect(confirm().isDisabled()).toBe(true);
    type('delete-topic-typed', 'order');
    expect(confirm().isDisabled()).toBe(true);
    type('delete-topic-typed', 'orders');
    act(() => confirm().click());

    await waitFor(() => expect(api.calls.filter((r) => r.method === 'DELETE')).toHaveLength(1));
  });
});
