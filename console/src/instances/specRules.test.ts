import { describe, expect, it } from 'vitest';
import { account, catalogV1, runningInstance } from '../test/fixtures';
import { estimateRequestFor } from './wizard/ReviewStep';
import { formatSigned, formatUsd } from './capacity';
import {
  pricedSpecOf,
  toCreation,
  toEstimateRequest,
  toUpdate,
  updateDraftOf,
  validateSpec,
  validateUpdate,
  withUpdate,
  type SpecDraft,
} from './specRules';

const ctx = { catalog: catalogV1, account };

function draft(overrides: { basics?: Partial<SpecDraft['basics']>; network?: Partial<SpecDraft['network']>; storage?: Partial<SpecDraft['storage']> } = {}): SpecDraft {
  return {
    basics: { name: 'orders-prod', cloudAccountId: account.id, region: 'us-east-1', ...overrides.basics },
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

describe('spec rules (mirroring the API)', () => {
  it('accepts a valid 3-zone FSWAL spec', () => {
    expect(validateSpec(draft(), ctx)).toEqual({});
  });

  it('name: required, DNS-safe, 3–64 characters', () => {
    expect(validateSpec(draft({ basics: { name: '' } }), ctx).name).toBe('is required');
    for (const bad of ['ab', 'Orders', '1orders', 'orders-', 'a'.repeat(65), 'or_ders']) {
      expect(validateSpec(draft({ basics: { name: bad } }), ctx).name).toMatch(/must be 3 to 64 characters/);
    }
    expect(validateSpec(draft({ basics: { name: 'abc' } }), ctx).name).toBeUndefined();
  });

  it('cloud account: required', () => {
    expect(validateSpec(draft({ basics: { cloudAccountId: '' } }), ctx).cloudAccountId).toBe('is required');
  });

  it('region: one of the cloud account’s regions', () => {
    expect(validateSpec(draft({ basics: { region: '' } }), ctx).region).toBe('is required');
    expect(validateSpec(draft({ basics: { region: 'us-east-2' } }), ctx).region).toMatch(/allows only \[us-east-1, eu-west-1\]/);
    expect(validateSpec(draft({ basics: { region: 'mars-north-1' } }), ctx).region).toMatch(/not a supported region/);
  });

  it('VPC id: vpc- and 8–17 hex digits', () => {
    expect(validateSpec(draft({ network: { vpcId: 'vpc-123' } }), ctx)['network.vpcId']).toMatch(/must be a VPC id/);
  });

  it('zones: 1 or 3 subnets, never 2', () => {
    const two = draft().network.subnets.slice(0, 2);
    expect(validateSpec(draft({ network: { subnets: two } }), ctx)['network.subnets']).toBe(
      'an instance spans 1 or 3 zones, one subnet in each; got 2',
    );
  });

  it('subnet id: pattern, and no subnet twice', () => {
    const subnets = draft().network.subnets.map((s) => ({ ...s }));
    subnets[0].subnetId = 'subnet-xyz';
    subnets[2].subnetId = subnets[1].subnetId;
    const errors = validateSpec(draft({ network: { subnets } }), ctx);
    expect(errors['network.subnets[0].subnetId']).toMatch(/must be a subnet id/);
    expect(errors['network.subnets[2].subnetId']).toMatch(/is listed twice/);
  });

  it('availability zones: of the region, and distinct', () => {
    const subnets = draft().network.subnets.map((s) => ({ ...s }));
    subnets[0].availabilityZone = 'eu-west-1a';
    subnets[2].availabilityZone = 'us-east-1b';
    const errors = validateSpec(draft({ network: { subnets } }), ctx);
    expect(errors['network.subnets[0].availabilityZone']).toBe('must be a zone of region us-east-1, such as us-east-1a');
    expect(errors['network.subnets[2].availabilityZone']).toMatch(/already holds network.subnets\[1\]/);
  });

  it('WAL type: EBS only with 1 zone', () => {
    expect(validateSpec(draft({ storage: { walType: 'EBS' } }), ctx)['wal.type']).toBe(
      'EBS WAL is zonal and needs exactly 1 zone; with 3 zones use S3 or FSWAL',
    );
  });

  it('WAL type: FSWAL only with 3 zones; S3 with either', () => {
    const oneZone = { zones: 1 as const, subnets: draft().network.subnets.slice(0, 1) };
    expect(validateSpec(draft({ network: oneZone, storage: { walType: 'FSWAL' } }), ctx)['wal.type']).toMatch(/FSWAL needs 3 zones/);
    expect(validateSpec(draft({ network: oneZone, storage: { walType: 'S3' } }), ctx)).toEqual({});
    expect(validateSpec(draft({ storage: { walType: 'S3' } }), ctx)).toEqual({});
  });

  it('AKU: a whole number within the catalog’s range', () => {
    expect(validateSpec(draft({ storage: { walType: 'S3', aku: '2' } }), ctx).aku).toBe('must be between 3 and 500; got 2');
    expect(validateSpec(draft({ storage: { walType: 'S3', aku: '501' } }), ctx).aku).toBe('must be between 3 and 500; got 501');
    expect(validateSpec(draft({ storage: { walType: 'S3', aku: '4.5' } }), ctx).aku).toBe('must be a whole number');
    expect(validateSpec(draft({ storage: { walType: 'S3', aku: '' } }), ctx).aku).toBe('is required');
  });

  it('FSx throughput: not-benchmarked specs are refused', () => {
    expect(validateSpec(draft({ storage: { fsxThroughput: 3072 } }), ctx)['fsx.throughputMBps']).toBe(
      '3072 MBps has no benchmarked Kafka write capacity yet; choose one of [384, 768, 1536] MBps',
    );
  });

  it('FSx count: 1 to the catalog’s maximum', () => {
    expect(validateSpec(draft({ storage: { fsxCount: '0' } }), ctx)['fsx.count']).toBe('must be between 1 and 10; got 0');
    expect(validateSpec(draft({ storage: { fsxCount: '11' } }), ctx)['fsx.count']).toBe('must be between 1 and 10; got 11');
  });

  it('FSx write capacity must cover AKU × write MiB/s, with the fix suggested', () => {
    expect(validateSpec(draft({ storage: { aku: '10', fsxThroughput: 384, fsxCount: '1' } }), ctx)['fsx.count']).toBe(
      '10 AKU need 200 MiB/s of WAL write capacity but 1 × 384 MBps FSx gives 150 MiB/s; use 2 × 384 MBps or 1 × 768 MBps, or lower AKU to 7.',
    );
    expect(validateSpec(draft({ storage: { aku: '7' } }), ctx)['fsx.count']).toBeUndefined();
  });

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

  it('AKU updates keep FSx capacity and refuse a no-op', () => {
    const current = { aku: 6, walType: 'FSWAL' as const, fsx: { throughputMBps: 768 as const, count: 1 } };
    const draft = (aku: string) => ({ ...updateDraftOf(current), aku });
    expect(validateUpdate(draft('9'), current, ctx)).toEqual({});
    expect(validateUpdate(draft('6'), current, ctx).aku).toBe('changes nothing: the instance already has 6 AKU and 1 × 768 MBps FSx');
    expect(validateUpdate(draft('20'), current, ctx)['fsx.count']).toMatch(/use 2 × 768 MBps or 1 × 1536 MBps, or lower AKU to 15/);
  });

  it('FSx updates follow the wizard’s FSx rules and patch only what changed', () => {
    const current = { aku: 20, walType: 'FSWAL' as const, fsx: { throughputMBps: 1536 as const, count: 1 } };
    const fsx = (fsxThroughput: 384 | 768 | 3072, fsxCount: string) => ({ aku: '20', fsx: { fsxThroughput, fsxCount } });
    expect(validateUpdate(fsx(768, '1'), current, ctx)['fsx.count']).toMatch(/20 AKU need 400 MiB\/s .* use 2 × 768 MBps/);
    expect(validateUpdate(fsx(3072, '1'), current, ctx)['fsx.throughputMBps']).toMatch(/no benchmarked Kafka write capacity/);
    expect(validateUpdate(fsx(768, '2'), current, ctx)).toEqual({});
    expect(toUpdate(fsx(768, '2'), current)).toEqual({ fsx: { throughputMBps: 768, count: 2 } });
    expect(toUpdate({ aku: '21', fsx: { fsxThroughput: 1536, fsxCount: '1' } }, current)).toEqual({ aku: 21 });
  });

  it('instances without FSx patch only the AKU', () => {
    const current = { aku: 3, walType: 'S3' as const, fsx: null };
    expect(updateDraftOf(current)).toEqual({ aku: '3', fsx: null });
    expect(validateUpdate({ aku: '3', fsx: null }, current, ctx).aku).toBe('changes nothing: the instance already has 3 AKU');
    expect(toUpdate({ aku: '4', fsx: null }, current)).toEqual({ aku: 4 });
  });
});
