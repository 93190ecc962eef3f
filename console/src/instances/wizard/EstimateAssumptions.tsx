import { useState } from 'react';
import Badge from '@cloudscape-design/components/badge';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Table from '@cloudscape-design/components/table';
import Toggle from '@cloudscape-design/components/toggle';
import type { EstimateAssumption, EstimateAssumptions, PurchaseOption } from '../../api/types';
import { strings } from '../../i18n/strings';

const s = strings.wizard.review.assumptions;

const PURCHASE_OPTIONS: PurchaseOption[] = ['ON_DEMAND', 'RESERVED_1_YEAR_NO_UPFRONT'];
const MIN_COMPRESSION = 1;
const MAX_COMPRESSION = 20;

/** A ratio the API takes, or undefined. */
function compressionRatioOf(text: string): number | undefined {
  const ratio = Number(text);
  return text.trim() !== '' && Number.isFinite(ratio) && ratio >= MIN_COMPRESSION && ratio <= MAX_COMPRESSION ? ratio : undefined;
}

/**
 * The three assumptions a caller may change. Only what the user changed goes into the request, so an untouched
 * Review asks the API exactly what it asked before (the defaults are the API's). A compression ratio being typed
 * is sent once it is a number the API takes.
 */
export function AssumptionControls({ value, onChange }: { value: EstimateAssumptions; onChange: (next: EstimateAssumptions) => void }) {
  const [ratioText, setRatioText] = useState(String(value.compressionRatio ?? MIN_COMPRESSION));
  const purchaseOption = value.purchaseOption ?? 'ON_DEMAND';
  const followerFetching = value.followerFetching ?? false;
  const option = (o: PurchaseOption) => ({ value: o, label: s.purchaseOptions[o] });
  return (
    <ColumnLayout columns={3} minColumnWidth={220}>
      <FormField label={s.purchaseOption} description={s.purchaseOptionDescription}>
        <Select
          data-testid="assumption-purchase-option"
          selectedOption={option(purchaseOption)}
          options={PURCHASE_OPTIONS.map(option)}
          onChange={({ detail }) => onChange({ ...value, purchaseOption: detail.selectedOption.value as PurchaseOption })}
        />
      </FormField>
      <FormField label={s.followerFetching} description={s.followerFetchingDescription}>
        <Toggle
          data-testid="assumption-follower-fetching"
          checked={followerFetching}
          onChange={({ detail }) => onChange({ ...value, followerFetching: detail.checked })}
        >
          {followerFetching ? s.followerFetchingOn : s.followerFetchingOff}
        </Toggle>
      </FormField>
      <FormField
        label={s.compressionRatio}
        description={s.compressionRatioDescription}
        constraintText={s.compressionRatioConstraint}
        errorText={compressionRatioOf(ratioText) === undefined ? s.compressionRatioInvalid : undefined}
      >
        <Input
          data-testid="assumption-compression-ratio"
          type="number"
          inputMode="decimal"
          step={0.1}
          value={ratioText}
          onChange={({ detail }) => {
            setRatioText(detail.value);
            const ratio = compressionRatioOf(detail.value);
            if (ratio !== undefined) onChange({ ...value, compressionRatio: ratio });
          }}
        />
      </FormField>
    </ColumnLayout>
  );
}

/** Every assumption the answer lists, in the API's order: changeable ones first, then the cost model's. */
export function AssumptionList({ assumptions }: { assumptions: EstimateAssumption[] }) {
  return (
    <ExpandableSection headerText={s.listed} defaultExpanded variant="footer">
      <Table
        data-testid="estimate-assumptions"
        variant="embedded"
        wrapLines
        items={assumptions}
        trackBy="name"
        ariaLabels={{ tableLabel: s.listed }}
        columnDefinitions={[
          { id: 'statement', header: s.statement, cell: (a) => a.statement, isRowHeader: true },
          { id: 'value', header: s.value, cell: (a) => <span data-testid={`assumption-${a.name}-value`}>{a.value}</span> },
          {
            id: 'source',
            header: s.source,
            cell: (a) => (
              <Badge data-testid={`assumption-${a.name}-source`} color={a.source === 'REQUEST' ? 'blue' : 'grey'}>
                {s.sources[a.source]}
              </Badge>
            ),
          },
        ]}
      />
    </ExpandableSection>
  );
}

/** The assumptions' heading, controls and list, for an estimate's container. */
export function AssumptionsSection({
  value,
  onChange,
  listed,
}: {
  value: EstimateAssumptions;
  onChange: (next: EstimateAssumptions) => void;
  listed: EstimateAssumption[] | undefined;
}) {
  return (
    <SpaceBetween size="m">
      <Header variant="h3" description={s.description}>
        {s.title}
      </Header>
      <AssumptionControls value={value} onChange={onChange} />
      {listed && <AssumptionList assumptions={listed} />}
    </SpaceBetween>
  );
}
