import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { KafkaAcl } from '../api/types';
import { formatDate } from '../app/common';
import { runningInstance } from '../test/fixtures';
import { eventually, fakeApi, json, renderWithProviders } from '../test/render';
import { AclsTab } from './AclsTab';

const base = `/instances/${runningInstance.id}/acls`;
const readOrders: KafkaAcl = {
  id: '7c0e2a14-5b3d-4f6e-9a8b-1c2d3e4f5a6b',
  principal: 'User:orders-service',
  resourceType: 'TOPIC',
  resourceName: 'orders',
  patternType: 'LITERAL',
  operation: 'READ',
  permission: 'ALLOW',
  host: '*',
  status: 'ACTIVE',
  statusMessage: null,
  createdAt: '2026-11-24T10:00:00Z',
  restoredAt: '2026-11-25T09:00:00Z',
};
const users = { items: [], nextCursor: null };

const page = () => createWrapper(document.body);
const fieldError = (testId: string) => page().findFormField(`[data-testid="${testId}"]`)?.findError()?.getElement().textContent;
const operations = () => {
  const select = page().findSelect('[data-testid="acl-operation"]')!;
  act(() => select.openDropdown());
  const labels = select.findDropdown().findOptions().map((o) => o.getElement().textContent);
  act(() => select.closeDropdown());
  return labels;
};
const chooseOperation = (operation: string) => {
  const select = page().findSelect('[data-testid="acl-operation"]')!;
  act(() => select.openDropdown());
  act(() => select.selectOptionByValue(operation));
};
const chooseResourceType = (type: string) =>
  act(() => page().findSegmentedControl('[data-testid="acl-resource-type"]')!.findSegmentById(type)!.click());

describe('ACLs tab', () => {
  it('lists ACLs with the resource they cover and when Keel restored them; viewers get no actions', async () => {
    renderWithProviders(<AclsTab instance={runningInstance} />, { role: 'viewer', api: fakeApi({ [`GET ${base}`]: { items: [readOrders], nextCursor: null } }) });

    await waitFor(() => expect(screen.getByTestId(`acl-status-${readOrders.id}`).textContent).toContain('Active'));
    expect(screen.getByTestId('acls-table').textContent).toContain('TOPIC orders');
    expect(screen.getByTestId(`acl-status-${readOrders.id}-restored`).textContent).toBe(`Restored ${formatDate(readOrders.restoredAt)}`);
    expect(screen.queryByTestId('create-acl')).toBeNull();
    expect(screen.queryByTestId('delete-acl')).toBeNull();
  });

  it('offers the operations Kafka allows on each resource type, and the cluster only as kafka-cluster', async () => {
    renderWithProviders(<AclsTab instance={runningInstance} />, { api: fakeApi({ [`GET ${base}`]: { items: [], nextCursor: null }, [`GET /instances/${runningInstance.id}/users`]: users }) });
    await waitFor(() => expect(screen.getAllByTestId('create-acl').length).toBeGreaterThan(0));
    act(() => screen.getAllByTestId('create-acl')[0].click());

    expect(operations()).toEqual(['READ', 'WRITE', 'CREATE', 'DELETE', 'ALTER', 'DESCRIBE', 'DESCRIBE_CONFIGS', 'ALTER_CONFIGS', 'ALL']);
    chooseOperation('WRITE');
    chooseResourceType('GROUP');
    expect(operations()).toEqual(['READ', 'DESCRIBE', 'DELETE', 'ALL']);
    // WRITE is no group operation: the choice is gone rather than silently sent.
    expect(page().findSelect('[data-testid="acl-operation"]')!.findTrigger().getElement().textContent).not.toContain('WRITE');
    chooseResourceType('TRANSACTIONAL_ID');
    expect(operations()).toEqual(['DESCRIBE', 'WRITE', 'ALL']);
    chooseResourceType('CLUSTER');
    expect(operations()).toContain('IDEMPOTENT_WRITE');
    const name = page().findInput('[data-testid="acl-resource-name"]')!;
    expect(name.getInputValue()).toBe('kafka-cluster');
    expect(name.isDisabled()).toBe(true);
  });

  it('checks the form, then sends the binding and puts the API’s field errors on their fields', async () => {
    const api = fakeApi({
      [`GET ${base}`]: { items: [], nextCursor: null },
      [`GET /instances/${runningInstance.id}/users`]: users,
      [`POST ${base}`]: () =>
        json(
          {
            type: 'https://keel.dev/problems/validation-failed',
            title: 'The request is not valid',
            status: 400,
            errors: [{ field: 'host', message: 'must be * or an IP address' }],
          },
          400,
        ),
    });
    renderWithProviders(<AclsTab instance={runningInstance} />, { api });
    await waitFor(() => expect(screen.getAllByTestId('create-acl').length).toBeGreaterThan(0));
    act(() => screen.getAllByTestId('create-acl')[0].click());

    act(() => page().findInput('[data-testid="acl-principal"]')!.setInputValue('orders-service'));
    act(() => page().findButton('[data-testid="create-acl-submit"]')!.click());
    expect(fieldError('acl-principal-field')).toBe('A principal is User:<name> or User:*.');
    expect(fieldError('acl-resource-name-field')).toBe('Enter a resource name.');
    expect(fieldError('acl-operation-field')).toBe('Choose an operation.');
    expect(api.calls.filter((r) => r.method === 'POST')).toHaveLength(0);

    act(() => page().findInput('[data-testid="acl-principal"]')!.setInputValue('User:orders-service'));
    act(() => page().findInput('[data-testid="acl-resource-name"]')!.setInputValue('orders'));
    chooseOperation('READ');
    act(() => page().findInput('[data-testid="acl-host"]')!.setInputValue('somewhere'));
    act(() => page().findButton('[data-testid="create-acl-submit"]')!.click());

    await eventually(() => expect(fieldError('acl-host-field')).toBe('must be * or an IP address'));
    const post = api.calls.find((r) => r.method === 'POST')!;
    expect(await post.json()).toEqual({
      principal: 'User:orders-service',
      resourceType: 'TOPIC',
      resourceName: 'orders',
      patternType: 'LITERAL',
      operation: 'READ',
      permission: 'ALLOW',
      host: 'somewhere',
    });
  });

  it('deletes an ACL after a confirmation that says what it allowed', async () => {
    const api = fakeApi({
      [`GET ${base}`]: { items: [readOrders], nextCursor: null },
      [`DELETE ${base}/${readOrders.id}`]: () => json({ ...readOrders, status: 'DELETING' }, 202),
    });
    renderWithProviders(<AclsTab instance={runningInstance} />, { api });
    await waitFor(() => expect(screen.getByTestId(`acl-status-${readOrders.id}`)).toBeTruthy());

    act(() => page().findTable('[data-testid="acls-table"]')!.findRowSelectionArea(1)!.click());
    act(() => screen.getByTestId('delete-acl').click());
    expect(screen.getByTestId('delete-acl-modal').textContent).toContain('ALLOW User:orders-service READ on TOPIC orders');
    act(() => page().findButton('[data-testid="delete-acl-confirm"]')!.click());

    await waitFor(() => expect(api.calls.filter((r) => r.method === 'DELETE')).toHaveLength(1));
  });
});
