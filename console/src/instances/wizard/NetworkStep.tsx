import Alert from '@cloudscape-design/components/alert';
import Autosuggest from '@cloudscape-design/components/autosuggest';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Tiles from '@cloudscape-design/components/tiles';
import { useAccountNetworks } from '../../api/cloudAccounts';
import { describeError } from '../../api/problem';
import { strings } from '../../i18n/strings';
import type { SubnetState, Zones } from '../specRules';
import { errorFor, type StepProps } from './types';

const s = strings.wizard.network;

export function defaultSubnets(zones: Zones, region: string, previous: SubnetState[] = []): SubnetState[] {
  return Array.from({ length: zones }, (_, i) => previous[i] ?? { availabilityZone: region ? `${region}${'abc'[i]}` : '', subnetId: '' });
}

export function NetworkStep({ draft, update, errors }: StepProps) {
  const { network, basics } = draft;
  const setSubnet = (index: number, patch: Partial<SubnetState>) =>
    update('network', { subnets: network.subnets.map((sn, i) => (i === index ? { ...sn, ...patch } : sn)) });
  // The account's VPCs are suggestions: ids can still be typed, e.g. when the listing fails.
  const networks = useAccountNetworks(basics.cloudAccountId, basics.region);
  const status = networks.isPending ? 'loading' : networks.isError ? 'error' : 'finished';
  const vpcs = networks.data?.vpcs ?? [];
  const subnets = vpcs.find((v) => v.vpcId === network.vpcId)?.subnets ?? [];
  return (
    <Container header={<Header variant="h2" description={s.description}>{s.title}</Header>}>
      <SpaceBetween size="l">
        <FormField label={s.zones} description={s.guidance} errorText={errorFor(errors, 'network.subnets')}>
          <Tiles
            data-testid="wizard-zones"
            value={String(network.zones)}
            columns={2}
            items={[
              { value: '1', label: s.oneZone, description: s.oneZoneHint },
              { value: '3', label: s.threeZones, description: s.threeZonesHint },
            ]}
            onChange={({ detail }) => {
              const zones = Number(detail.value) as Zones;
              update('network', { zones, subnets: defaultSubnets(zones, basics.region, network.subnets) });
            }}
          />
        </FormField>
        <FormField label={s.vpc} constraintText={s.vpcHint} errorText={errorFor(errors, 'network.vpcId', 'network')}>
          <Autosuggest
            data-testid="wizard-vpc"
            value={network.vpcId}
            options={vpcs.map((v) => ({ value: v.vpcId, label: v.name ?? v.vpcId, description: `${v.vpcId} · ${v.cidrBlock}` }))}
            statusType={status}
            loadingText={s.loadingNetworks}
            errorText={s.networksFailed}
            empty={s.noVpcs}
            enteredTextLabel={(value) => s.useTyped(value)}
            clearAriaLabel={s.clear(s.vpc)}
            placeholder={s.vpcPlaceholder}
            ariaLabel={s.vpc}
            onChange={({ detail }) => update('network', { vpcId: detail.value.trim() })}
          />
        </FormField>
        {networks.isError && <Alert type="warning" header={s.networksFailed}>{describeError(networks.error)}</Alert>}
        <Header variant="h3">{s.subnetsHeader}</Header>
        {network.subnets.map((subnet, i) => (
          <ColumnLayout columns={2} key={i}>
            <FormField
              label={`${s.zone(i + 1)}: ${s.availabilityZone}`}
              errorText={errorFor(errors, `network.subnets[${i}].availabilityZone`, `network.subnets[${i}]`)}
            >
              <Input
                data-testid={`wizard-az-${i}`}
                value={subnet.availabilityZone}
                onChange={({ detail }) => setSubnet(i, { availabilityZone: detail.value.trim() })}
              />
            </FormField>
            <FormField label={`${s.zone(i + 1)}: ${s.subnet}`} errorText={errorFor(errors, `network.subnets[${i}].subnetId`)}>
              <Autosuggest
                data-testid={`wizard-subnet-${i}`}
                value={subnet.subnetId}
                options={subnets.map((sn) => ({
                  value: sn.subnetId,
                  label: sn.name ?? sn.subnetId,
                  description: `${sn.subnetId} · ${sn.availabilityZone} · ${sn.cidrBlock}`,
                }))}
                statusType={status}
                loadingText={s.loadingNetworks}
                errorText={s.networksFailed}
                empty={network.vpcId ? s.noSubnets : s.chooseVpcFirst}
                enteredTextLabel={(value) => s.useTyped(value)}
                clearAriaLabel={s.clear(`${s.zone(i + 1)}: ${s.subnet}`)}
                ariaLabel={`${s.zone(i + 1)}: ${s.subnet}`}
                onChange={({ detail }) => {
                  const subnetId = detail.value.trim();
                  // A listed subnet also knows its zone.
                  const listed = subnets.find((sn) => sn.subnetId === subnetId);
                  setSubnet(i, listed ? { subnetId, availabilityZone: listed.availabilityZone } : { subnetId });
                }}
              />
            </FormField>
          </ColumnLayout>
        ))}
      </SpaceBetween>
    </Container>
  );
}
