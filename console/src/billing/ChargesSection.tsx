import Box from '@cloudscape-design/components/box';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import type { Usage } from '../api/types';
import { useSizingCatalog } from '../api/catalog';
import { LoadError } from '../app/common';
import { strings } from '../i18n/strings';
import { monthCharges } from './charges';

const c = strings.billing.charges;

const usd = (value: number, maxDigits = 2) =>
  value.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: maxDigits });

/**
 * The month's charges at the listing's price, so far and projected, with what the projection assumes. On the trial
 * nothing is billed: the same figures say what the usage would cost once subscribed.
 */
export function ChargesSection({ usage, trial }: { usage: Usage | undefined; trial: boolean }) {
  const catalog = useSizingCatalog();
  if (catalog.error) {
    return <LoadError header={c.loadFailed} error={catalog.error} onRetry={() => void catalog.refetch()} testId="charges-load-error" />;
  }
  const price = catalog.data?.listing.usdPerAkuHour;
  const charges = usage && price !== undefined ? monthCharges(usage, price) : undefined;
  const shown = (value: number | undefined) => (value === undefined ? strings.common.loading : usd(value));
  return (
    <Container
      data-testid="charges"
      header={
        <Header variant="h2" description={price === undefined ? undefined : (trial ? c.trialDescription : c.description)(usd(price, 4))}>
          {c.title}
        </Header>
      }
    >
      <KeyValuePairs
        columns={2}
        items={[
          { label: c.soFar, value: <span data-testid="charges-so-far">{shown(charges?.soFarUsd)}</span> },
          {
            label: c.projected,
            value: (
              <>
                <span data-testid="charges-projected">{shown(charges?.projectedUsd)}</span>
                {charges && (
                  <Box variant="small" data-testid="charges-assumption">
                    {charges.hoursLeft === 0
                      ? c.monthOver
                      : c.assumption(charges.runningAku, charges.hoursLeft.toLocaleString('en-US', { maximumFractionDigits: 1 }))}
                  </Box>
                )}
              </>
            ),
          },
        ]}
      />
    </Container>
  );
}
