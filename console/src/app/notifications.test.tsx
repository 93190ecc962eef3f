import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { renderWithProviders } from '../test/render';
import { AppShell } from './AppShell';
import { instanceNotice, useNotifications, type Notice } from './notifications';

let notify: (notice: Notice) => void = () => undefined;

function Page() {
  notify = useNotifications().notify;
  return <AppShell breadcrumbs={[]} content={<p>page</p>} />;
}

const flashbar = () => createWrapper(document.body).findFlashbar()!;

describe('notifications', () => {
  it('a new change to an instance replaces the notice of the one before', () => {
    renderWithProviders(<Page />);
    act(() => notify(instanceNotice('i-1', 'Creating instance orders.')));
    act(() => notify(instanceNotice('i-2', 'Creating instance payments.')));
    act(() => notify(instanceNotice('i-1', 'Scaling orders to 9 AKU.')));

    const texts = flashbar().findItems().map((item) => item.getElement().textContent);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('Scaling orders to 9 AKU.');
    expect(texts.join()).not.toContain('Creating instance orders.');
  });

  it('stacks more than two notices behind a toggle that has a name', () => {
    renderWithProviders(<Page />);
    for (const id of ['a', 'b', 'c']) {
      act(() => notify(instanceNotice(id, `Creating instance ${id}.`)));
    }
    expect(screen.getByRole('button', { name: 'View all notifications' })).toBeTruthy();
  });
});
