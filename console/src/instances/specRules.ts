/**
 * What the console checks as the user types. The API is the authority on a spec (the wizard asks it,
 * through POST /instances/plan, before leaving each step); here live only the checks instant feedback
 * needs: required fields, worded for people, and the capacity rules, derived from the sizing catalog and
 * worded as the API words them. `spec-rules-cases.json` (beside the API's tests) holds the capacity rules
 * of both sides to the same answers.
 */
import type {
  EstimateRequest,
  FsxSpec,
  FsxThroughput,
  Instance,
  InstanceCreation,
  InstanceUpdate,
  S3GatewayEndpointMode,
  SizingCatalog,
  WalType,
} from '../api/types';
import type { FieldErrors } from '../api/problem';
import { strings } from '../i18n/strings';
import { benchmarkedFsx, fsxFit, fsxOption } from './capacity';

export type Zones = 1 | 3;

export interface BasicsState {
  name: string;
  cloudAccountId: string;
  region: string;
  /** On unless turned off: the console protects what it creates from a stray delete. */
  deletionProtection: boolean;
}
export interface SubnetState {
  availabilityZone: string;
  subnetId: string;
}
export interface NetworkState {
  zones: Zones;
  vpcId: string;
  subnets: SubnetState[];
  s3GatewayEndpoint: S3GatewayEndpointMode;
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

export type FsxDraft = Pick<StorageState, 'fsxThroughput' | 'fsxCount'>;

/** The capacity part of a spec, as typed: what the catalog's rules apply to. */
export interface CapacityDraft {
  zones: number;
  walType: WalType | '';
  aku: string;
  /** Only for FSWAL. */
  fsx: FsxDraft | null;
}

const r = strings.rules;

function reject(errors: FieldErrors, field: string, message: string) {
  errors[field] = errors[field] ? `${errors[field]} ${message}` : message;
}

export function parseWholeNumber(raw: string): number | undefined {
  return /^\s*\d+\s*$/.test(raw) ? Number(raw) : undefined;
}

/** The typed AKU when it is a whole number the catalog offers, e.g. to show what it buys. */
export function akuInRange(rawAku: string, catalog: SizingCatalog): number | undefined {
  const aku = parseWholeNumber(rawAku);
  return aku !== undefined && aku >= catalog.aku.min && aku <= catalog.aku.max ? aku : undefined;
}

const WAL_ZONES: Record<WalType, (zones: number) => string> = {
  EBS: (zones) => `EBS WAL is zonal and needs exactly 1 zone; with ${zones} zones use S3 or FSWAL`,
  FSWAL: (zones) => `FSWAL needs 3 zones (FSx for ONTAP Multi-AZ); with ${zones} zone use EBS or S3`,
  S3: () => 'S3 WAL needs 1 or 3 zones',
};

function benchmarkedList(catalog: SizingCatalog): string {
  return `[${benchmarkedFsx(catalog)
    .map((o) => o.throughputMBps)
    .join(', ')}]`;
}

function fsxErrors(errors: FieldErrors, fsx: FsxDraft, aku: number | undefined, catalog: SizingCatalog) {
  const option = fsxOption(fsx.fsxThroughput, catalog);
  if (!option) {
    reject(errors, 'fsx.throughputMBps', `must be one of ${benchmarkedList(catalog)} MBps`);
  } else if (!option.benchmarked) {
    reject(errors, 'fsx.throughputMBps', `${fsx.fsxThroughput} MBps has no benchmarked Kafka write capacity yet; choose one of ${benchmarkedList(catalog)} MBps`);
  }
  const count = parseWholeNumber(fsx.fsxCount);
  if (fsx.fsxCount.trim() === '') return reject(errors, 'fsx.count', r.required);
  if (count === undefined || count < 1 || count > catalog.fsxMaxCount) {
    return reject(errors, 'fsx.count', `must be between 1 and ${catalog.fsxMaxCount}; got ${fsx.fsxCount.trim()}`);
  }
  if (aku === undefined || !option?.benchmarked) return;
  const fit = fsxFit(aku, fsx.fsxThroughput, count, catalog);
  if (fit && !fit.fits) {
    reject(
      errors,
      'fsx.count',
      `${aku} AKU need ${fit.neededMiBps} MiB/s of WAL write capacity but ${count} × ${fsx.fsxThroughput} MBps FSx gives ${fit.availableMiBps} MiB/s; use ${fit.fix}.`,
    );
  }
}

/** The WAL type against the zones, the AKU range and, for FSWAL, the FSx throughput, count and write capacity. */
export function capacityErrors(draft: CapacityDraft, catalog: SizingCatalog): FieldErrors {
  const errors: FieldErrors = {};
  if (draft.walType === '') {
    reject(errors, 'wal.type', `is required: one of [${catalog.walTypes.map((w) => w.type).join(', ')}]`);
  } else if (!catalog.walTypes.find((w) => w.type === draft.walType)?.zones.includes(draft.zones)) {
    reject(errors, 'wal.type', WAL_ZONES[draft.walType](draft.zones));
  }
  const aku = parseWholeNumber(draft.aku);
  const { min, max } = catalog.aku;
  if (draft.aku.trim() === '') reject(errors, 'aku', r.required);
  else if (aku === undefined) reject(errors, 'aku', r.wholeNumber);
  else if (aku < min || aku > max) reject(errors, 'aku', `must be between ${min} and ${max}; got ${aku}`);
  if (draft.walType === 'FSWAL' && draft.fsx) fsxErrors(errors, draft.fsx, aku, catalog);
  return errors;
}

export function validateBasics(basics: BasicsState): FieldErrors {
  const errors: FieldErrors = {};
  if (basics.name.trim() === '') reject(errors, 'name', r.enterName);
  if (basics.cloudAccountId === '') reject(errors, 'cloudAccountId', r.chooseAccount);
  if (basics.region === '') reject(errors, 'region', r.chooseRegion);
  return errors;
}

export function validateNetwork(network: NetworkState): FieldErrors {
  const errors: FieldErrors = {};
  if (network.vpcId.trim() === '') reject(errors, 'network.vpcId', r.chooseVpc);
  network.subnets.forEach((subnet, i) => {
    if (subnet.availabilityZone === '') reject(errors, `network.subnets[${i}].availabilityZone`, r.chooseZone(i + 1));
    else if (subnet.subnetId.trim() === '') reject(errors, `network.subnets[${i}].subnetId`, r.chooseSubnet(i + 1, subnet.availabilityZone));
  });
  return errors;
}

export function validateStorage(storage: StorageState, zones: number, catalog: SizingCatalog): FieldErrors {
  return capacityErrors(
    { zones, walType: storage.walType, aku: storage.aku, fsx: storage.walType === 'FSWAL' ? storage : null },
    catalog,
  );
}

/** The request body for POST /instances (and its plan) from a draft. */
export function toCreation(draft: SpecDraft): InstanceCreation {
  const { basics, network, storage } = draft;
  const body: InstanceCreation = {
    name: basics.name,
    cloudAccountId: basics.cloudAccountId,
    region: basics.region,
    network: { vpcId: network.vpcId, subnets: network.subnets.map((s) => ({ ...s })), s3GatewayEndpoint: network.s3GatewayEndpoint },
    wal: { type: storage.walType as WalType },
    aku: Number(storage.aku),
    deletionProtection: basics.deletionProtection,
    // The console creates only authenticated, encrypted instances; plaintext is a development flag of the API.
    listenerSecurity: 'SASL_SSL',
  };
  if (storage.walType === 'FSWAL') body.fsx = { throughputMBps: storage.fsxThroughput, count: Number(storage.fsxCount) };
  return body;
}

/** What the update form holds, as typed: the new AKU and, for an instance with FSx, the new FSx. */
export interface UpdateDraft {
  aku: string;
  fsx: FsxDraft | null;
}

export interface CurrentCapacity {
  aku: number;
  walType: WalType;
  zones: number;
  fsx: { throughputMBps: FsxThroughput; count: number } | null;
}

export function currentCapacityOf(instance: Instance): CurrentCapacity {
  return { aku: instance.spec.aku, walType: instance.spec.wal.type, zones: instance.spec.network.subnets.length, fsx: instance.spec.fsx };
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

/** The update's capacity rules (only AKU and FSx change), and no update that changes nothing. */
export function validateUpdate(draft: UpdateDraft, current: CurrentCapacity, catalog: SizingCatalog): FieldErrors {
  const errors = capacityErrors({ zones: current.zones, walType: current.walType, aku: draft.aku, fsx: draft.fsx }, catalog);
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
  /** Unknown for an instance whose spec does not say: the API then prices its default. */
  s3GatewayEndpoint?: S3GatewayEndpointMode;
}

/**
 * The body for POST /estimates. It names no workload on purpose: the API then prices every spec
 * by one rule (its own AKU throughput, 72 hours of retention, today's catalog), so two estimates
 * differ only by their specs and can be compared.
 */
export function toEstimateRequest(spec: PricedSpec): EstimateRequest {
  const request: EstimateRequest = { region: spec.region, zones: spec.zones, wal: { type: spec.walType }, aku: spec.aku };
  if (spec.walType === 'FSWAL' && spec.fsx) request.fsx = { ...spec.fsx };
  if (spec.s3GatewayEndpoint) request.s3GatewayEndpoint = spec.s3GatewayEndpoint;
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
    s3GatewayEndpoint: instance.spec.network.s3GatewayEndpoint,
  };
}

/** `spec` after the merge patch `patch`, i.e. what PATCH /instances/{id} would leave. */
export function withUpdate(spec: PricedSpec, patch: InstanceUpdate): PricedSpec {
  return { ...spec, aku: patch.aku ?? spec.aku, fsx: spec.fsx && patch.fsx ? { ...spec.fsx, ...patch.fsx } : spec.fsx };
}
