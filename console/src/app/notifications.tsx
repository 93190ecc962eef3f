import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { FlashbarProps } from '@cloudscape-design/components/flashbar';
import { ACTIVE_OPERATION_STATES, useOperation } from '../api/operations';
import type { Operation } from '../api/types';
import { strings } from '../i18n/strings';

const o = strings.operationOutcome;

export interface Notice {
  type: FlashbarProps.Type;
  content: ReactNode;
  header?: ReactNode;
  loading?: boolean;
  /** Same id replaces an earlier notice (e.g. progress → done). */
  id?: string;
}

/** A change the API accepted: its notice says it runs until the operation ends, then says how it ended. */
export interface StartedChange {
  operation: Operation;
  instanceName: string;
  /** What runs, e.g. "Creating instance orders-prod." */
  started: ReactNode;
}

interface Notifications {
  items: FlashbarProps.MessageDefinition[];
  notify: (notice: Notice) => void;
  dismiss: (id: string) => void;
  /** Shows `change` running and, when its operation ends, its outcome in the same place. */
  follow: (change: StartedChange) => void;
}

const NotificationsContext = createContext<Notifications | null>(null);

let counter = 0;

/** An instance's changes share one notice: each new change replaces the one before. */
const noticeIdOf = (operation: Operation) => `instance-${operation.instanceId}`;

/** How an operation ended, as a notice: done, or the step it failed at and why. */
export function outcomeNotice(operation: Operation, instanceName: string): Notice {
  const id = noticeIdOf(operation);
  if (operation.state === 'SUCCEEDED') return { id, type: 'success', content: o.succeeded[operation.type](instanceName) };
  if (operation.state === 'CANCELLED') return { id, type: 'info', content: o.cancelled(o.change[operation.type](instanceName)) };
  const step = operation.steps.find((s) => s.state === 'FAILED');
  return {
    id,
    type: 'error',
    header: o.failed(o.change[operation.type](instanceName), step?.name),
    content: operation.error?.message ?? step?.message ?? o.noReason,
  };
}

/** Polls one operation until it ends, then reports its outcome. */
function OperationWatch({ change, onEnd }: { change: StartedChange; onEnd: (notice: Notice) => void }) {
  const { data } = useOperation(change.operation.id);
  useEffect(() => {
    if (data && !ACTIVE_OPERATION_STATES.includes(data.state)) onEnd(outcomeNotice(data, change.instanceName));
  }, [data, change.instanceName, onEnd]);
  return null;
}

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<FlashbarProps.MessageDefinition[]>([]);
  const [followed, setFollowed] = useState<Record<string, StartedChange>>({});
  const forget = useCallback((id: string) => setFollowed(({ [id]: _, ...rest }) => rest), []);
  const dismiss = useCallback(
    (id: string) => {
      setItems((all) => all.filter((i) => i.id !== id));
      forget(id);
    },
    [forget],
  );
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
  const follow = useCallback(
    (change: StartedChange) => {
      const id = noticeIdOf(change.operation);
      notify({ id, type: 'info', loading: true, content: change.started });
      setFollowed((all) => ({ ...all, [id]: change }));
    },
    [notify],
  );
  const ended = useCallback(
    (notice: Notice) => {
      notify(notice);
      forget(notice.id ?? '');
    },
    [notify, forget],
  );
  const value = useMemo(() => ({ items, notify, dismiss, follow }), [items, notify, dismiss, follow]);
  return (
    <NotificationsContext.Provider value={value}>
      {children}
      {Object.values(followed).map((change) => (
        <OperationWatch key={change.operation.id} change={change} onEnd={ended} />
      ))}
    </NotificationsContext.Provider>
  );
}

export function useNotifications(): Notifications {
  const value = useContext(NotificationsContext);
  if (!value) throw new Error('useNotifications outside NotificationsProvider');
  return value;
}
