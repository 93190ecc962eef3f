import Alert from '@cloudscape-design/components/alert';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import StatusIndicator, { type StatusIndicatorProps } from '@cloudscape-design/components/status-indicator';
import { useSubscription } from '../api/billing';
import type { MarketplaceSubscription } from '../api/types';
import { formatDate } from '../app/common';
import { strings } from '../i18n/strings';

const s = strings.billing.subscription;

const STATUS: Record<MarketplaceSubscription['state'], StatusIndicatorProps.Type> = {
  PENDING: 'pending',
  ACTIVE: 'success',
  AMENDED: 'success',
  CANCELLING: 'warning',
  ENDED: 'stopped',
};

/** A cancelled or ended agreement changes what the organization may do: said above everything else on the page. */
export function SubscriptionAlert({ subscription }: { subscription: MarketplaceSubscription | null | undefined }) {
  if (subscription?.state === 'CANCELLING') {
    return (
      <Alert type="warning" header={s.cancelling} data-testid="subscription-alert">
        {s.cancellingBody}
      </Alert>
    );
  }
  if (subscription?.state === 'ENDED') {
    return (
      <Alert type="error" header={s.ended(formatDate(subscription.endedAt))} data-testid="subscription-alert">
        {s.endedBody(formatDate(subscription.graceEndsAt))}
      </Alert>
    );
  }
  return null;
}

/** On the instance pages while an ended subscription's grace runs: the instances go when it ends. */
export function GracePeriodAlert() {
  const subscription = useSubscription().data?.subscription;
  if (subscription?.state !== 'ENDED') return null;
  return (
    <Alert type="warning" header={s.graceHeader(formatDate(subscription.graceEndsAt))} data-testid="grace-period-alert">
      {s.graceBody}
    </Alert>
  );
}

/** The AWS Marketplace subscription the organization pays through, so a buyer can match it with their AWS bill. */
export function SubscriptionSection({ subscription }: { subscription: MarketplaceSubscription }) {
  const entitlement = subscription.entitlement;
  return (
    <Container header={<Header variant="h2" description={s.description}>{s.title}</Header>} data-testid="subscription">
      <KeyValuePairs
        columns={3}
        items={[
          {
            label: s.state,
            value: (
              <StatusIndicator type={STATUS[subscription.state]}>
                <span data-testid="subscription-state">{s.states[subscription.state]}</span>
              </StatusIndicator>
            ),
          },
          { label: s.account, value: <span data-testid="subscription-account">{subscription.customerAwsAccountId}</span> },
          {
            label: s.entitlement,
            value: (
              <span data-testid="subscription-entitlement">
                {entitlement === null ? s.notRead : entitlement.maxAku === null ? s.payAsYouGo : s.maxAku(entitlement.maxAku)}
              </span>
            ),
          },
          { label: s.licence, value: subscription.licenseArn ?? s.legacy(subscription.customerIdentifier ?? '') },
          { label: s.product, value: subscription.productCode },
          { label: s.since, value: formatDate(subscription.stateChangedAt) },
        ]}
      />
    </Container>
  );
}
