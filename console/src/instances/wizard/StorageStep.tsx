import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Tiles from '@cloudscape-design/components/tiles';
import type { WalType } from '../../api/types';
import { strings } from '../../i18n/strings';
import { CapacityReadout } from '../CapacityViews';
import { FsxFields } from '../FsxFields';
import { akuInRange } from '../specRules';
import { errorFor, type StepProps } from './types';

const s = strings.wizard.storage;

export function StorageStep({ draft, update, errors, catalog }: StepProps) {
  const { storage, network } = draft;
  const shownAku = akuInRange(storage.aku, catalog);
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
      <Container header={<Header variant="h2">{s.capacityTitle}</Header>}>
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
        <Container header={<Header variant="h2">{s.fsxTitle}</Header>}>
          <FsxFields
            value={storage}
            onChange={(patch) => update('storage', patch)}
            aku={shownAku}
            catalog={catalog}
            errors={{ throughput: errorFor(errors, 'fsx.throughputMBps'), count: errorFor(errors, 'fsx.count', 'fsx') }}
            testIdPrefix="wizard"
          />
        </Container>
      )}
    </SpaceBetween>
  );
}
