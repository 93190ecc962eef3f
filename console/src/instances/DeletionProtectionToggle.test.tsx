import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import type { Instance } from '../api/types';
import { runningInstance } from '../test/fixtures';
import { fakeApi, json, renderWithProviders } from '../test/render';
import { DeletionProtectionToggle } from './DeletionProtectionToggle';

const patchPath = `PATCH /instances/${runningInstance.id}`;
const protectedInstance: Instance = { ...runningInstance, deletionProtection: true };

/** The API's answer to a patch of deletion protection alone: the instance, changed. */
const patched = async (request: Request) =>
  json({ ...runningInstance, deletionProtection: ((await request.json()) as { deletionProtection: boolean }).deletionProtection });

const toggle = () => createWrapper(document.body).findToggle('[data-testid="deletion-protection-toggle"]')!;

describe('deletion protection toggle', () => {
  it('asks before turning protection off, then sends the change with the ETag read', async () => {
    const api = fakeApi({ [patchPath]: patched });
    renderWithProviders(<DeletionProtectionToggle instance={protectedInstance} etag='"3"' />, { api });

    expect(toggle().findNativeInput().getElement().checked).toBe(true);
    act(() => toggle().findNativeInput().click());
    expect(screen.getByTestId('deletion-protection-off-modal').textContent).toContain('can then delete orders-prod');
    expect(api.calls).toHaveLength(0);

    act(() => createWrapper(document.body).findButton('[data-testid="deletion-protection-off-confirm"]')!.click());
    await waitFor(() => expect(api.calls).toHaveLength(1));
    const patch = api.calls[0];
    expect(patch.method).toBe('PATCH');
    expect(patch.headers.get('If-Match')).toBe('"3"');
    expect(patch.headers.get('Content-Type')).toBe('application/merge-patch+json');
    expect(await patch.json()).toEqual({ deletionProtection: false });
    await waitFor(() => expect(screen.queryByTestId('deletion-protection-off-modal')).toBeNull());
  });

  it('turns protection on without asking', async () => {
    const api = fakeApi({ [patchPath]: patched });
    renderWithProviders(<DeletionProtectionToggle instance={runningInstance} etag='"3"' />, { api });

    act(() => toggle().findNativeInput().click());
    await waitFor(() => expect(api.calls).toHaveLength(1));
    expect(await api.calls[0].json()).toEqual({ deletionProtection: true });
    expect(screen.queryByTestId('deletion-protection-off-modal')).toBeNull();
  });

  it('is shown but cannot be changed by a viewer', () => {
    renderWithProviders(<DeletionProtectionToggle instance={protectedInstance} etag='"3"' />, { role: 'viewer' });
    expect(toggle().findNativeInput().getElement().checked).toBe(true);
    expect(toggle().findNativeInput().getElement().disabled).toBe(true);
  });
});
