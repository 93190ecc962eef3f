import Alert from '@cloudscape-design/components/alert';
import Autosuggest from '@cloudscape-design/components/autosuggest';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import RadioGroup from '@cloudscape-design/components/radio-group';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Tiles from '@cloudscape-design/components/tiles';
import { useAccountNetworks } from '../../api/cloudAccounts';
import { describeError } from '../../api/problem';
import type { AccountVpc, S3GatewayEndpointMode } from '../../api/types';
import { strings } from '../../i18n/strings';
import type { SubnetState, Zones } from '../specRules';
import { errorFor, type StepProps } from './types';

const s = strings.wizard.network;

const S3_ENDPOINT_MODES: S3GatewayEndpointMode[] = ['CREATE', 'REQUIRE_EXISTING', 'NONE'];

/** Zone letters most regions have, offered when the account's own subnets cannot be listed. */
const USUAL_ZONE_LETTERS = 'abcdef';

/** The zones a row may take: those the VPC has subnets in (or, unlisted, the region's usual ones), less those other rows hold. */
export function zonesFor(row: number, subnets: SubnetState[], region: string, vpc: AccountVpc | undefined): string[] {
  const offered = vpc
    ? [...new Set(vpc.subnets.map((sn) => sn.availabilityZone))].sort()
    : region
      ? [...USUAL_ZONE_LETTERS].map((letter) => `${region}${letter}`)
      : [];
  const taken = new Set(subnets.filter((_, i) => i !== row).map((sn) => sn.availabilityZone));
  return offered.filter((zone) => !taken.has(zone));
}

/** The subnets a row may take: the VPC's subnets in the row's zone that no other row holds. */
export function subnetsFor(row: number, subnets: SubnetState[], vpc: AccountVpc | undefined) {
  const zone = subnets[row]?.availabilityZone;
  const taken = new Set(subnets.filter((_, i) => i !== row).map((sn) => sn.subnetId));
  return (vpc?.subnets ?? []).filter((sn) => sn.availabilityZone === zone && !taken.has(sn.subnetId));
}

/** `zones` rows, keeping what the first rows hold and giving new rows a zone no other row has. */
export function defaultSubnets(zones: Zones, region: string, previous: SubnetState[] = []): SubnetState[] {
  const rows = previous.slice(0, zones);
  while (rows.length < zones) {
    const used = new Set(rows.map((r) => r.availabilityZone));
    const letter = [...USUAL_ZONE_LETTERS].find((l) => !used.has(`${region}${l}`));
    rows.push({ availabilityZone: region && letter ? `${region}${letter}` : '', subnetId: '' });
  }
  return rows;
}

export function NetworkStep({ draft, update, errors }: StepProps) {
  const { network, basics } = draft;
  // The account's VPCs and subnets, read through its role; ids can still be typed, e.g. when the listing fails.
  const networks = useAccountNetworks(basics.cloudAccountId, basics.region);
  const status = networks.isPending ? 'loading' : networks.isError ? 'error' : 'finished';
  const vpcs = networks.data?.vpcs ?? [];
  const vpc = vpcs.find((v) => v.vpcId === network.vpcId);
  const setSubnet = (index: number, patch: Partial<SubnetState>) =>
    update('network', { subnets: network.subnets.map((sn, i) => (i === index ? { ...sn, ...patch } : sn)) });
  const chooseVpc = (vpcId: string) => {
    const listed = vpcs.find((v) => v.vpcId === vpcId);
    // Subnets of another VPC cannot stay; with an unlisted VPC nobody knows, so what was typed stays.
    const subnets = listed
      ? network.subnets.map((sn) => (listed.subnets.some((l) => l.subnetId === sn.subnetId) ? sn : { ...sn, subnetId: '' }))
      : network.subnets;
    update('network', { vpcId, subnets });
  };
  const chooseZone = (index: number, zone: string) => {
    const current = network.subnets[index];
    // A subnet lives in one zone: a listed subnet of another zone is dropped.
    const keeps = !vpc || vpc.subnets.some((l) => l.subnetId === current.subnetId && l.availabilityZone === zone);
    setSubnet(index, { availabilityZone: zone, subnetId: keeps ? current.subnetId : '' });
  };
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
            onChange={({ detail }) => chooseVpc(detail.value.trim())}
          />
        </FormField>
        {networks.isError && <Alert type="warning" header={s.networksFailed}>{describeError(networks.error)}</Alert>}
        <Header variant="h3" description={s.subnetsDescription}>
          {s.subnetsHeader}
        </Header>
        {network.subnets.map((subnet, i) => {
          const zone = subnet.availabilityZone;
          const subnets = subnetsFor(i, network.subnets, vpc);
          return (
            <ColumnLayout columns={2} key={i}>
              <FormField
                label={s.zoneLabel(i + 1)}
                errorText={errorFor(errors, `network.subnets[${i}].availabilityZone`, `network.subnets[${i}]`)}
              >
                <Select
                  data-testid={`wizard-az-${i}`}
                  selectedOption={zone ? { value: zone, label: zone } : null}
                  placeholder={s.zonePlaceholder}
                  options={zonesFor(i, network.subnets, basics.region, vpc).map((z) => ({ value: z, label: z }))}
                  empty={s.noZones}
                  ariaLabel={s.zoneLabel(i + 1)}
                  onChange={({ detail }) => chooseZone(i, detail.selectedOption.value ?? '')}
                />
              </FormField>
              <FormField label={s.subnetLabel(i + 1)} errorText={errorFor(errors, `network.subnets[${i}].subnetId`)}>
                <Autosuggest
                  data-testid={`wizard-subnet-${i}`}
                  value={subnet.subnetId}
                  options={subnets.map((sn) => ({
                    value: sn.subnetId,
                    label: sn.name ?? sn.subnetId,
                    description: `${sn.subnetId} · ${sn.cidrBlock}`,
                  }))}
                  statusType={status}
                  loadingText={s.loadingNetworks}
                  errorText={s.networksFailed}
                  empty={!network.vpcId ? s.chooseVpcFirst : zone ? s.noSubnetsIn(zone) : s.chooseZoneFirst}
                  enteredTextLabel={(value) => s.useTyped(value)}
                  clearAriaLabel={s.clear(s.subnetLabel(i + 1))}
                  placeholder={zone ? s.subnetPlaceholder(zone) : s.chooseZoneFirst}
                  ariaLabel={s.subnetLabel(i + 1)}
                  onChange={({ detail }) => setSubnet(i, { subnetId: detail.value.trim() })}
                />
              </FormField>
            </ColumnLayout>
          );
        })}
        <FormField label={s.s3Endpoint} description={s.s3EndpointDescription} errorText={errorFor(errors, 'network.s3GatewayEndpoint')}>
          <RadioGroup
            data-testid="wizard-s3-endpoint"
            value={network.s3GatewayEndpoint}
            items={S3_ENDPOINT_MODES.map((mode) => ({
              value: mode,
              label: s.s3EndpointModes[mode].label,
              description: s.s3EndpointModes[mode].description,
            }))}
            onChange={({ detail }) => update('network', { s3GatewayEndpoint: detail.value as S3GatewayEndpointMode })}
          />
        </FormField>
      </SpaceBetween>
    </Container>
  );
}
