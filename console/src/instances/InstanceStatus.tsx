import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import type { Instance } from '../api/types';
import { StateIndicator } from '../app/common';
import { strings } from '../i18n/strings';

const t = strings.instanceStatus;

/** What an instance's state means once its conditions are read: a running instance can still be unwell. */
export interface InstanceHealth {
  /**
   * `degraded`: something is wrong now; `silent`: broker agents stopped reporting (nothing is replaced for it);
   * `awaiting`: no broker has reported yet; `starting`: new brokers boot.
   */
  kind: 'degraded' | 'silent' | 'awaiting' | 'starting';
  type: StatusIndicatorProps.Type;
  label: string;
  /** The condition's own words. */
  message: string;
  /** Where the details are: the brokers' health, or the conditions on the overview. */
  tab: 'brokers' | 'overview';
}

/**
 * The health a RUNNING instance's `Degraded` condition reports, if any: the state alone ("Running") would contradict
 * brokers that cannot be reached or resources that drifted.
 */
export function healthOf(instance: Instance): InstanceHealth | undefined {
  if (instance.state !== 'RUNNING') return undefined;
  const degraded = instance.conditions.find((c) => c.type === 'Degraded');
  const silent = instance.conditions.find((c) => c.type === 'AgentsSilent');
  if (degraded?.status === 'True' && silent?.status === 'True' && degraded.reason === 'BrokersUnhealthy') {
    // Silence says nothing of the machines: Keel replaces none for it, and says so.
    return { kind: 'silent', type: 'warning', label: t.silent, message: silent.message, tab: 'brokers' };
  }
  if (degraded?.status === 'True') {
    const brokers = degraded.reason === 'BrokersUnhealthy';
    return { kind: 'degraded', type: 'warning', label: t.degraded, message: degraded.message, tab: brokers ? 'brokers' : 'overview' };
  }
  if (degraded?.status === 'Unknown' && degraded.reason === 'BrokersStarting') {
    // A scale-up (or a repair) whose new brokers have not reported yet: in progress, not unwell.
    return { kind: 'starting', type: 'in-progress', label: t.starting, message: degraded.message, tab: 'brokers' };
  }
  if (degraded?.status === 'Unknown') {
    return { kind: 'awaiting', type: 'pending', label: t.awaiting, message: degraded.message, tab: 'brokers' };
  }
  return undefined;
}

/** The instance's status as the list shows it: the state, or the health a running instance's conditions report. */
export function InstanceStatus({ instance, testId }: { instance: Instance; testId?: string }) {
  const health = healthOf(instance);
  if (!health) return <StateIndicator state={instance.state} testId={testId} />;
  return (
    <span data-testid={testId} data-state={instance.state} data-health={health.kind}>
      <StatusIndicator type={health.type}>{health.label}</StatusIndicator>
    </span>
  );
}

/**
 * The status in the instance's header: with an unwell instance, what its condition says and where to look. Inline
 * elements only, as a header's description is a paragraph.
 */
export function InstanceStatusDetail({ instance, onShowTab }: { instance: Instance; onShowTab: (tab: 'brokers' | 'overview') => void }) {
  const health = healthOf(instance);
  return (
    <>
      <InstanceStatus instance={instance} testId="instance-state" />
      {health && (
        <>
          <br />
          <Box variant="small" data-testid="instance-health-message">
            {health.message}{' '}
            <Button variant="inline-link" data-testid="instance-health-link" onClick={() => onShowTab(health.tab)}>
              {t.see[health.tab]}
            </Button>
          </Box>
        </>
      )}
    </>
  );
}
