/**
 * The instance spec rules, mirrored from the API (backend SpecRules.java, which is the authority)
 * with the same field paths and, where sensible, the same messages. Every rule adds an error
 * rather than stopping at the first, so a step can show them all.
 */
import type {
  CloudAccount,
  EstimateRequest,
  FsxSpec,
  FsxThroughput,
  Instance,
  InstanceCreation,
  InstanceUpdate,
  SizingCatalog,
  WalType,
} from '../api/types';
import type { FieldErrors } from '../api/problem';
import { benchmarkedFsx, fsxFit, fsxOption } from './capacity';

export const NAME_PATTERN = /^[a-z][a-z0-9-]{1,62}[a-z0-9]$/;
export const VPC_PATTERN = /^vpc-[0-9a-f]{8,17}$/;
export const SUBNET_PATTERN = /^subnet-[0-9a-f]{8,17}$/;

export type Zones = 1 | 3;

export interface BasicsState {
  name: string;
  cloudAccountId: string;
  region: string;
}
export interface SubnetState {
  availabilityZone: string;
  subnetId: string;
}
export interface NetworkState {
  zones: Zones;
  vpcId: string;
  subnets: SubnetState[];
}
export interface StorageState {
  walType: WalType | '';
  /** As typed, so a half-typed number can be shown and rejected. */
  aku: string;
  fsxThroughput: FsxThroughput;
  fsxCount: string;
}
export interface SpecDraft {
  basics: BasicsState;
  network: NetworkState;
  storage: StorageState;
}

export interface RuleContext {
  catalog: SizingCatalog;
  /** The cloud account chosen in basics, when known. */
  account?: CloudAccount;
}

type Errors = FieldErrors;

function reject(errors: Errors, field: string, message: string) {
  errors[field] = errors[field] ? `${errors[field]} ${message}` : message;
}

export function parseWholeNumber(raw: string): number | undefined {
  return /^\s*\d+\s*$/.test(raw) ? Number(raw) : undefined;
}

export function nameRule(errors: Errors, name: string, field = 'name') {
  if (name.trim() === '') return reject(errors, field, 'is required');
  if (!NAME_PATTERN.test(name)) {
    reject(
      errors,
      field,
      'must be 3 to 64 characters of lowercase letters, digits and hyphens, start with a letter and end with a letter or digit (it becomes part of DNS names)',
    );
  }
}

export function cloudAccountRule(errors: Errors, cloudAccountId: string) {
  if (cloudAccountId === '') reject(errors, 'cloudAccountId', 'is required');
}

export function regionRule(errors: Errors, region: string, ctx: RuleContext) {
  if (region === '') return reject(errors, 'region', 'is required');
  if (!ctx.catalog.regions.includes(region)) {
    return reject(errors, 'region', `'${region}' is not a supported region; choose one of [${ctx.catalog.regions.join(', ')}]`);
  }
  if (ctx.account && !ctx.account.regions.includes(region)) {
    reject(
      errors,
      'region',
      `cloud account ${ctx.account.name} allows only [${ctx.account.regions.join(', ')}]; add ${region} to it or choose one of those`,
    );
  }
}

export function vpcRule(errors: Errors, vpcId: string) {
  if (!VPC_PATTERN.test(vpcId)) reject(errors, 'network.vpcId', 'must be a VPC id such as vpc-0a1b2c3d4e5f60789');
}

export function zonesRule(errors: Errors, subnets: SubnetState[]): boolean {
  if (subnets.length !== 1 && subnets.length !== 3) {
    reject(errors, 'network.subnets', `an instance spans 1 or 3 zones, one subnet in each; got ${subnets.length}`);
    return false;
  }
  return true;
}

export function subnetRules(errors: Errors, subnets: SubnetState[], region: string) {
  const seenSubnets = new Set<string>();
  const zoneUsedBy = new Map<string, number>();
  subnets.forEach((subnet, i) => {
    const prefix = `network.subnets[${i}]`;
    if (!SUBNET_PATTERN.test(subnet.subnetId)) {
      reject(errors, `${prefix}.subnetId`, 'must be a subnet id such as subnet-0a1b2c3d4e5f60789');
    } else if (seenSubnets.has(subnet.subnetId)) {
      reject(errors, `${prefix}.subnetId`, `subnet ${subnet.subnetId} is listed twice`);
    } else {
      seenSubnets.add(subnet.subnetId);
    }
    const zone = subnet.availabilityZone;
    if (region === '' || !zone.startsWith(region) || !/^[a-z]$/.test(zone.slice(region.length))) {
      reject(errors, `${prefix}.availabilityZone`, `must be a zone of region ${region || '(choose a region)'}, such as ${region || 'us-east-1'}a`);
    } else if (zoneUsedBy.has(zone)) {
      reject(
        errors,
        `${prefix}.availabilityZone`,
        `zone ${zone} already holds network.subnets[${zoneUsedBy.get(zone)}]; each subnet must be in a distinct zone`,
      );
    } else {
      zoneUsedBy.set(zone, i);
    }
  });
}

export function walRule(errors: Errors, walType: WalType | '', zones: number, ctx: RuleContext) {
  if (walType === '') return reject(errors, 'wal.type', 'is required: one of [EBS, S3, FSWAL]');
  const option = ctx.catalog.walTypes.find((w) => w.type === walType);
  if (option && option.zones.includes(zones)) return;
  const messages: Record<WalType, string> = {
    EBS: `EBS WAL is zonal and needs exactly 1 zone; with ${zones} zones use S3 or FSWAL`,
    FSWAL: `FSWAL needs 3 zones (FSx for ONTAP Multi-AZ); with ${zones} zone use EBS or S3`,
    S3: 'S3 WAL needs 1 or 3 zones',
  };
  reject(errors, 'wal.type', messages[walType]);
}

/** The typed AKU when it is a whole number the catalog offers, e.g. to show what it buys. */
export function akuInRange(rawAku: string, catalog: SizingCatalog): number | undefined {
  const aku = parseWholeNumber(rawAku);
  return aku !== undefined && aku >= catalog.aku.min && aku <= catalog.aku.max ? aku : undefined;
}

export function akuRule(errors: Errors, rawAku: string, ctx: RuleContext): number | undefined {
  const aku = parseWholeNumber(rawAku);
  const { min, max } = ctx.catalog.aku;
  if (rawAku.trim() === '') {
    reject(errors, 'aku', 'is required');
    return undefined;
  }
  if (aku === undefined) {
    reject(errors, 'aku', 'must be a whole number');
    return undefined;
  }
  if (aku < min || aku > max) {
    reject(errors, 'aku', `must be between ${min} and ${max}; got ${aku}`);
    return undefined;
  }
  return aku;
}

export function fsxRules(errors: Errors, storage: StorageState, aku: number | undefined, ctx: RuleContext) {
  const option = fsxOption(storage.fsxThroughput, ctx.catalog);
  const offered = `[${benchmarkedFsx(ctx.catalog)
    .map((o) => o.throughputMBps)
    .join(', ')}]`;
  let throughputOk = true;
  if (!option) {
    reject(errors, 'fsx.throughputMBps', `must be one of ${offered} MBps`);
    throughputOk = false;
  } else if (!option.benchmarked) {
    reject(errors, 'fsx.throughputMBps', `${storage.fsxThroughput} MBps has no benchmarked Kafka write capacity yet; choose one of ${offered} MBps`);
    throughputOk = false;
  }
  const count = parseWholeNumber(storage.fsxCount);
  if (storage.fsxCount.trim() === '') return reject(errors, 'fsx.count', 'is required');
  if (count === undefined || count < 1 || count > ctx.catalog.fsxMaxCount) {
    return reject(errors, 'fsx.count', `must be between 1 and ${ctx.catalog.fsxMaxCount}; got ${storage.fsxCount.trim()}`);
  }
  if (aku === undefined || !throughputOk) return;
  const fit = fsxFit(aku, storage.fsxThroughput, count, ctx.catalog);
  if (fit && !fit.fits) {
    reject(
      errors,
      'fsx.count',
      `${aku} AKU need ${fit.neededMiBps} MiB/s of WAL write capacity but ${count} × ${storage.fsxThroughput} MBps FSx gives ${fit.availableMiBps} MiB/s; use ${fit.fix}.`,
    );
  }
}

export function validateBasics(basics: BasicsState, ctx: RuleContext): Errors {
  const errors: Errors = {};
  nameRule(errors, basics.name);
  cloudAccountRule(errors, basics.cloudAccountId);
  regionRule(errors, basics.region, ctx);
  return errors;
}

export function validateNetwork(network: NetworkState, region: string): Errors {
  const errors: Errors = {};
  vpcRule(errors, network.vpcId);
  if (zonesRule(errors, network.subnets)) subnetRules(errors, network.subnets, region);
  return errors;
}

export function validateStorage(storage: StorageState, zones: number, ctx: RuleContext): Errors {
  const errors: Errors = {};
  walRule(errors, storage.walType, zones, ctx);
  const aku = akuRule(errors, storage.aku, ctx);
  if (storage.walType === 'FSWAL') fsxRules(errors, storage, aku, ctx);
  return errors;
}

export function validateSpec(draft: SpecDraft, ctx: RuleContext): Errors {
  return {
    ...validateBasics(draft.basics, ctx),
    ...validateNetwork(draft.network, draft.basics.region),
    ...validateStorage(draft.storage, draft.network.subnets.length, ctx),
  };
}

/** The request body for POST /instances from a valid draft. */
export function toCreation(draft: SpecDraft): InstanceCreation {
  const { basics, network, storage } = draft;
  const body: InstanceCreation = {
    name: basics.name,
    cloudAccountId: basics.cloudAccountId,
    region: basics.region,
    network: { vpcId: network.vpcId, subnets: network.subnets.map((s) => ({ ...s })) },
    wal: { type: storage.walType as WalType },
    aku: Number(storage.aku),
  };
  if (storage.walType === 'FSWAL') body.fsx = { throughputMBps: storage.fsxThroughput, count: Number(storage.fsxCount) };
  return body;
}

export type FsxDraft = Pick<StorageState, 'fsxThroughput' | 'fsxCount'>;

/** What the update form holds, as typed: the new AKU and, for an instance with FSx, the new FSx. */
export interface UpdateDraft {
  aku: string;
  fsx: FsxDraft | null;
}

export interface CurrentCapacity {
  aku: number;
  walType: WalType;
  fsx: { throughputMBps: FsxThroughput; count: number } | null;
}

/** The form of an instance's current capacity, before any change. */
export function updateDraftOf(current: CurrentCapacity): UpdateDraft {
  return {
    aku: String(current.aku),
    fsx: current.fsx && { fsxThroughput: current.fsx.throughputMBps, fsxCount: String(current.fsx.count) },
  };
}

/** The merge patch for PATCH /instances/{id} from a valid draft: only what changed; undefined when nothing did. */
export function toUpdate(draft: UpdateDraft, current: CurrentCapacity): InstanceUpdate | undefined {
  const patch: InstanceUpdate = {};
  const aku = Number(draft.aku);
  if (aku !== current.aku) patch.aku = aku;
  if (draft.fsx) {
    const fsx = { throughputMBps: draft.fsx.fsxThroughput, count: Number(draft.fsx.fsxCount) };
    if (fsx.throughputMBps !== current.fsx?.throughputMBps || fsx.count !== current.fsx.count) patch.fsx = fsx;
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/** The update rules (only AKU and FSx change): the new AKU and FSx with the instance's WAL. */
export function validateUpdate(draft: UpdateDraft, current: CurrentCapacity, ctx: RuleContext): Errors {
  const errors: Errors = {};
  const aku = akuRule(errors, draft.aku, ctx);
  if (current.walType === 'FSWAL' && draft.fsx) fsxRules(errors, { walType: 'FSWAL', aku: draft.aku, ...draft.fsx }, aku, ctx);
  if (Object.keys(errors).length === 0 && toUpdate(draft, current) === undefined) {
    const fsx = current.fsx ? ` and ${current.fsx.count} × ${current.fsx.throughputMBps} MBps FSx` : '';
    reject(errors, 'aku', `changes nothing: the instance already has ${current.aku} AKU${fsx}`);
  }
  return errors;
}

/** One shape for all that gets priced (a wizard draft, an instance, an instance with an update), so all make the same estimate request. */
export interface PricedSpec {
  region: string;
  zones: Zones;
  walType: WalType;
  aku: number;
  fsx: FsxSpec | null;
}

/**
 * The body for POST /estimates. It names no workload on purpose: the API then prices every spec
 * by one rule (its own AKU throughput, 72 hours of retention, today's catalog), so two estimates
 * differ only by their specs and can be compared.
 */
export function toEstimateRequest(spec: PricedSpec): EstimateRequest {
  const request: EstimateRequest = { region: spec.region, zones: spec.zones, wal: { type: spec.walType }, aku: spec.aku };
  if (spec.walType === 'FSWAL' && spec.fsx) request.fsx = { ...spec.fsx };
  return request;
}

export function pricedSpecOf(instance: Instance): PricedSpec {
  return {
    region: instance.region,
    // The API keeps an instance on 1 or 3 subnets, one per zone.
    zones: instance.spec.network.subnets.length as Zones,
    walType: instance.spec.wal.type,
    aku: instance.spec.aku,
    fsx: instance.spec.fsx,
  };
}

/** `spec` after the merge patch `patch`, i.e. what PATCH /instances/{id} would leave. */
export function withUpdate(spec: PricedSpec, patch: InstanceUpdate): PricedSpec {
  return { ...spec, aku: patch.aku ?? spec.aku, fsx: spec.fsx && patch.fsx ? { ...spec.fsx, ...patch.fsx } : spec.fsx };
}
