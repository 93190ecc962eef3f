import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { FlashbarProps } from '@cloudscape-design/components/flashbar';
import { strings } from '../i18n/strings';

export interface Notice {
  type: FlashbarProps.Type;
  content: ReactNode;
  header?: ReactNode;
  loading?: boolean;
  /** Same id replaces an earlier notice (e.g. progress → done). */
  id?: string;
}

/** The id of an instance's change notices: each new change replaces the notice of the one before. */
export function instanceNotice(instanceId: string, content: ReactNode): Notice {
  return { id: `instance-${instanceId}`, type: 'info', content };
}

interface Notifications {
  items: FlashbarProps.MessageDefinition[];
  notify: (notice: Notice) => void;
  dismiss: (id: string) => void;
}

const NotificationsContext = createContext<Notifications | null>(null);

let counter = 0;

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<FlashbarProps.MessageDefinition[]>([]);
  const dismiss = useCallback((id: string) => setItems((all) => all.filter((i) => i.id !== id)), []);
  const notify = useCallback(
    (notice: Notice) => {
      const id = notice.id ?? `notice-${++counter}`;
      const item: FlashbarProps.MessageDefinition = {
        id,
        type: notice.type,
        header: notice.header,
        content: notice.content,
        loading: notice.loading,
        dismissible: true,
        dismissLabel: strings.common.dismiss,
        onDismiss: () => dismiss(id),
      };
      setItems((all) => [item, ...all.filter((i) => i.id !== id)].slice(0, 5));
    },
    [dismiss],
  );
  const value = useMemo(() => ({ items, notify, dismiss }), [items, notify, dismiss]);
  return <NotificationsContext.Provider value={value}>{children}</NotificationsContext.Provider>;
}

export function useNotifications(): Notifications {
  const value = useContext(NotificationsContext);
  if (!value) throw new Error('useNotifications outside NotificationsProvider');
  return value;
}
