import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import RadioGroup from '@cloudscape-design/components/radio-group';
import SpaceBetween from '@cloudscape-design/components/space-between';
import type { FsxThroughput, SizingCatalog } from '../api/types';
import { strings } from '../i18n/strings';
import { FsxCapacityBar } from './CapacityViews';
import { parseWholeNumber, type FsxDraft } from './specRules';

const s = strings.wizard.storage;

/**
 * The FSx throughput and count, with the write capacity they give against `aku`'s need: in the
 * wizard for a new instance and in the update modal for an existing one.
 */
export function FsxFields({
  value,
  onChange,
  aku,
  catalog,
  errors,
  testIdPrefix,
}: {
  value: FsxDraft;
  onChange: (patch: Partial<FsxDraft>) => void;
  /** The AKU whose write need the bar shows; undefined while it is not valid. */
  aku: number | undefined;
  catalog: SizingCatalog;
  errors: { throughput?: string; count?: string };
  testIdPrefix: string;
}) {
  return (
    <SpaceBetween size="l">
      <FormField label={s.fsxThroughput} errorText={errors.throughput}>
        <RadioGroup
          data-testid={`${testIdPrefix}-fsx-throughput`}
          value={String(value.fsxThroughput)}
          items={catalog.fsx.map((o) => ({
            value: String(o.throughputMBps),
            label: s.fsxOption(o.throughputMBps, o.kafkaWriteMiBps),
            description: o.benchmarked ? undefined : s.notBenchmarked,
            disabled: !o.benchmarked,
          }))}
          onChange={({ detail }) => onChange({ fsxThroughput: Number(detail.value) as FsxThroughput })}
        />
      </FormField>
      <FormField label={s.fsxCount} constraintText={s.fsxCountHint(catalog.fsxMaxCount)} errorText={errors.count}>
        <Input
          data-testid={`${testIdPrefix}-fsx-count`}
          type="number"
          inputMode="numeric"
          value={value.fsxCount}
          onChange={({ detail }) => onChange({ fsxCount: detail.value })}
        />
      </FormField>
      {/* The count's own error, once shown, already says what the bar's fix would. */}
      <FsxCapacityBar
        aku={aku}
        throughputMBps={value.fsxThroughput}
        count={parseWholeNumber(value.fsxCount)}
        catalog={catalog}
        showFix={!errors.count}
      />
    </SpaceBetween>
  );
}
