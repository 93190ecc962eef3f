import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FieldError, FsxThroughput, SizingCatalog, WalType } from '../api/types';
import { account, catalogV1, runningInstance } from '../test/fixtures';
import { estimateRequestFor } from './wizard/ReviewStep';
import { formatSigned, formatUsd } from './capacity';
import {
  capacityErrors,
  pricedSpecOf,
  toCreation,
  toEstimateRequest,
  toUpdate,
  updateDraftOf,
  validateBasics,
  validateNetwork,
  validateUpdate,
  withUpdate,
  type SpecDraft,
} from './specRules';

/** The cases the API's SpecRulesCasesTest runs too: both sides must answer each one alike. */
interface SharedCase {
  case: string;
  zones: number;
  wal: WalType | null;
  aku: number | null;
  fsx: { throughputMBps: number; count: number } | null;
  errors: FieldError[];
}
const shared = JSON.parse(
  readFileSync(resolve(__dirname, '../../../backend/src/test/resources/spec-rules-cases.json'), 'utf8'),
) as { catalog: Pick<SizingCatalog, 'aku' | 'fsx' | 'fsxMaxCount' | 'walTypes'>; cases: SharedCase[] };
const sharedCatalog: SizingCatalog = { ...catalogV1, ...shared.catalog, walTypes: shared.catalog.walTypes.map((w) => ({ ...w, description: '' })) };

function draft(overrides: { basics?: Partial<SpecDraft['basics']>; network?: Partial<SpecDraft['network']>; storage?: Partial<SpecDraft['storage']> } = {}): SpecDraft {
  return {
    basics: { name: 'orders-prod', cloudAccountId: account.id, region: 'us-east-1', deletionProtection: true, ...overrides.basics },
    network: {
      zones: 3,
      vpcId: 'vpc-0a1b2c3d4e5f67890',
      subnets: [
        { availabilityZone: 'us-east-1a', subnetId: 'subnet-0123456789abcdef0' },
        { availabilityZone: 'us-east-1b', subnetId: 'subnet-0fedcba9876543210' },
        { availabilityZone: 'us-east-1c', subnetId: 'subnet-0a0b0c0d0e0f01234' },
      ],
      ...overrides.network,
    },
    storage: { walType: 'FSWAL', aku: '6', fsxThroughput: 384, fsxCount: '1', ...overrides.storage },
  };
}

describe('capacity rules, answered as the API answers them', () => {
  it.each(shared.cases.map((c) => [c.case, c] as const))('%s', (_, c) => {
    const errors = capacityErrors(
      {
        zones: c.zones,
        walType: c.wal ?? '',
        aku: c.aku === null ? '' : String(c.aku),
        fsx: c.fsx && { fsxThroughput: c.fsx.throughputMBps as FsxThroughput, fsxCount: String(c.fsx.count) },
      },
      sharedCatalog,
    );
    expect(Object.entries(errors).map(([field, message]) => ({ field, message }))).toEqual(c.errors);
  });

  it('covers every WAL type, the AKU bounds and each FSx outcome', () => {
    const fields = new Set(shared.cases.flatMap((c) => c.errors.map((e) => e.field)));
    expect([...fields].sort()).toEqual(['aku', 'fsx.count', 'fsx.throughputMBps', 'wal.type']);
    expect(new Set(shared.cases.map((c) => c.wal))).toEqual(new Set(['EBS', 'S3', 'FSWAL', null]));
  });

  it('a typed AKU that is not a whole number waits for the user to fix it', () => {
    expect(capacityErrors({ zones: 3, walType: 'S3', aku: '4.5', fsx: null }, catalogV1).aku).toBe('must be a whole number');
  });
});

describe('required fields, worded for people', () => {
  it('basics: a name, a cloud account and a region', () => {
    expect(validateBasics({ name: ' ', cloudAccountId: '', region: '', deletionProtection: true })).toEqual({
      name: 'Enter a name',
      cloudAccountId: 'Choose a cloud account',
      region: 'Choose a region',
    });
    expect(validateBasics(draft().basics)).toEqual({});
  });

  it('network: a VPC, and in each zone an availability zone and one of its subnets', () => {
    const subnets = [
      { availabilityZone: 'us-east-1a', subnetId: 'subnet-0123456789abcdef0' },
      { availabilityZone: 'us-east-1b', subnetId: '' },
      { availabilityZone: '', subnetId: '' },
    ];
    expect(validateNetwork({ zones: 3, vpcId: '', subnets })).toEqual({
      'network.vpcId': 'Choose a VPC',
      'network.subnets[1].subnetId': 'Zone 2 needs a subnet in us-east-1b',
      'network.subnets[2].availabilityZone': 'Zone 3 needs an availability zone',
    });
    expect(validateNetwork(draft().network)).toEqual({});
  });
});

describe('requests built from the forms', () => {
  it('toCreation sends fsx only for FSWAL', () => {
    expect(toCreation(draft()).fsx).toEqual({ throughputMBps: 384, count: 1 });
    expect(toCreation(draft({ storage: { walType: 'S3' } })).fsx).toBeUndefined();
    expect(toCreation(draft()).aku).toBe(6);
  });

  it('estimates price a wizard draft, an instance and an instance with its update from one builder', () => {
    expect(estimateRequestFor(draft())).toEqual({ region: 'us-east-1', zones: 3, wal: { type: 'FSWAL' }, aku: 6, fsx: { throughputMBps: 384, count: 1 } });
    expect(estimateRequestFor(draft({ storage: { walType: 'S3' } })).fsx).toBeUndefined();
    const current = pricedSpecOf(runningInstance);
    expect(toEstimateRequest(current)).toEqual(estimateRequestFor(draft()));
    expect(toEstimateRequest(withUpdate(current, { fsx: { count: 2 } }))).toEqual({ ...estimateRequestFor(draft()), fsx: { throughputMBps: 384, count: 2 } });
    expect(withUpdate({ ...current, walType: 'S3', fsx: null }, { aku: 9 })).toEqual({ ...current, walType: 'S3', fsx: null, aku: 9 });
  });

  it('a change shows its sign, but not when it rounds to nothing', () => {
    expect([800, -400, 0.3, 0].map((v) => formatSigned(v, formatUsd))).toEqual(['+$800', '\u2212$400', '$0', '$0']);
  });
});

describe('updates', () => {
  it('AKU updates keep FSx capacity and refuse a no-op', () => {
    const current = { aku: 6, walType: 'FSWAL' as const, zones: 3, fsx: { throughputMBps: 768 as const, count: 1 } };
    const update = (aku: string) => ({ ...updateDraftOf(current), aku });
    expect(validateUpdate(update('9'), current, catalogV1)).toEqual({});
    expect(validateUpdate(update('6'), current, catalogV1).aku).toBe('changes nothing: the instance already has 6 AKU and 1 × 768 MBps FSx');
    expect(validateUpdate(update('20'), current, catalogV1)['fsx.count']).toMatch(/use 2 × 768 MBps or 1 × 1536 MBps, or lower AKU to 15/);
  });

  it('FSx updates follow the wizard’s FSx rules and patch only what changed', () => {
    const current = { aku: 20, walType: 'FSWAL' as const, zones: 3, fsx: { throughputMBps: 1536 as const, count: 1 } };
    const fsx = (fsxThroughput: 384 | 768 | 3072, fsxCount: string) => ({ aku: '20', fsx: { fsxThroughput, fsxCount } });
    expect(validateUpdate(fsx(768, '1'), current, catalogV1)['fsx.count']).toMatch(/20 AKU need 400 MiB\/s .* use 2 × 768 MBps/);
    expect(validateUpdate(fsx(3072, '1'), current, catalogV1)['fsx.throughputMBps']).toMatch(/no benchmarked Kafka write capacity/);
    expect(validateUpdate(fsx(768, '2'), current, catalogV1)).toEqual({});
    expect(toUpdate(fsx(768, '2'), current)).toEqual({ fsx: { throughputMBps: 768, count: 2 } });
    expect(toUpdate({ aku: '21', fsx: { fsxThroughput: 1536, fsxCount: '1' } }, current)).toEqual({ aku: 21 });
  });

  it('instances without FSx patch only the AKU', () => {
    const current = { aku: 3, walType: 'S3' as const, zones: 1, fsx: null };
    expect(updateDraftOf(current)).toEqual({ aku: '3', fsx: null });
    expect(validateUpdate({ aku: '3', fsx: null }, current, catalogV1).aku).toBe('changes nothing: the instance already has 3 AKU');
    expect(toUpdate({ aku: '4', fsx: null }, current)).toEqual({ aku: 4 });
  });
});
