import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import RadioGroup from '@cloudscape-design/components/radio-group';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Tiles from '@cloudscape-design/components/tiles';
import type { FsxThroughput, WalType } from '../../api/types';
import { strings } from '../../i18n/strings';
import { CapacityReadout, FsxCapacityBar } from '../CapacityViews';
import { parseWholeNumber } from '../specRules';
import { errorFor, type StepProps } from './types';

const s = strings.wizard.storage;

export function StorageStep({ draft, update, errors, catalog }: StepProps) {
  const { storage, network } = draft;
  const aku = parseWholeNumber(storage.aku);
  const shownAku = aku !== undefined && aku >= catalog.aku.min && aku <= catalog.aku.max ? aku : undefined;
  return (
    <SpaceBetween size="l">
      <Container header={<Header variant="h2" description={s.description}>{s.wal}</Header>}>
        <FormField errorText={errorFor(errors, 'wal.type', 'wal')} stretch>
          <Tiles
            data-testid="wizard-wal"
            value={storage.walType}
            columns={3}
            ariaLabel={s.wal}
            items={catalog.walTypes.map((w) => {
              const allowed = w.zones.includes(network.zones);
              return {
                value: w.type,
                label: w.type,
                disabled: !allowed,
                description: (
                  <SpaceBetween size="xxs">
                    <span>{w.description}</span>
                    <span>{s.zonesAllowed(w.zones)}</span>
                    <span>{s.latency[w.type]}</span>
                    <span>{s.cost[w.type]}</span>
                    {!allowed && <strong>{s.notForZones(network.zones)}</strong>}
                  </SpaceBetween>
                ),
              };
            })}
            onChange={({ detail }) => update('storage', { walType: detail.value as WalType })}
          />
        </FormField>
      </Container>
      <Container header={<Header variant="h2">{s.aku}</Header>}>
        <SpaceBetween size="l">
          <FormField
            label={s.aku}
            constraintText={s.akuHint(catalog.aku.min, catalog.aku.max, catalog.aku.writeMiBps, catalog.aku.readMiBps)}
            errorText={errorFor(errors, 'aku')}
          >
            <Input
              data-testid="wizard-aku"
              type="number"
              inputMode="numeric"
              value={storage.aku}
              onChange={({ detail }) => update('storage', { aku: detail.value })}
            />
          </FormField>
          <CapacityReadout aku={shownAku} catalog={catalog} />
        </SpaceBetween>
      </Container>
      {storage.walType === 'FSWAL' && (
        <Container header={<Header variant="h2">FSx for NetApp ONTAP</Header>}>
          <SpaceBetween size="l">
            <FormField label={s.fsxThroughput} errorText={errorFor(errors, 'fsx.throughputMBps')}>
              <RadioGroup
                data-testid="wizard-fsx-throughput"
                value={String(storage.fsxThroughput)}
                items={catalog.fsx.map((o) => ({
                  value: String(o.throughputMBps),
                  label: s.fsxOption(o.throughputMBps, o.kafkaWriteMiBps),
                  description: o.benchmarked ? undefined : s.notBenchmarked,
                  disabled: !o.benchmarked,
                }))}
                onChange={({ detail }) => update('storage', { fsxThroughput: Number(detail.value) as FsxThroughput })}
              />
            </FormField>
            <FormField label={s.fsxCount} constraintText={s.fsxCountHint(catalog.fsxMaxCount)} errorText={errorFor(errors, 'fsx.count', 'fsx')}>
              <Input
                data-testid="wizard-fsx-count"
                type="number"
                inputMode="numeric"
                value={storage.fsxCount}
                onChange={({ detail }) => update('storage', { fsxCount: detail.value })}
              />
            </FormField>
            <FsxCapacityBar
              aku={shownAku}
              throughputMBps={storage.fsxThroughput}
              count={parseWholeNumber(storage.fsxCount)}
              catalog={catalog}
            />
          </SpaceBetween>
        </Container>
      )}
    </SpaceBetween>
  );
}
