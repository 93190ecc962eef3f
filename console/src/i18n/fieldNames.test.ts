import { describe, expect, it } from 'vitest';
import { fieldName, inWords } from './fieldNames';

describe('field paths in words', () => {
  it('names the fields people see, zones counted from 1', () => {
    expect(fieldName('network.subnets[0].subnetId')).toBe('Zone 1 subnet');
    expect(fieldName('network.subnets[2].availabilityZone')).toBe('Zone 3 availability zone');
    expect(fieldName('network.subnets[1]')).toBe('Zone 2');
    expect(fieldName('fsx.count')).toBe('Number of file systems');
    expect(fieldName('network.vpcId')).toBe('VPC');
    expect(fieldName('somethingNew')).toBe('somethingNew');
  });

  it('puts the paths inside an API message into words, acronyms kept', () => {
    expect(inWords('zone us-east-1a already holds network.subnets[0]; each subnet must be in a distinct zone')).toBe(
      'zone us-east-1a already holds zone 1; each subnet must be in a distinct zone',
    );
    expect(inWords('subnet-0b is not in network.vpcId')).toBe('subnet-0b is not in VPC');
    expect(inWords('applies only to FSWAL instances; remove it or choose wal.type FSWAL')).toBe(
      'applies only to FSWAL instances; remove it or choose WAL type FSWAL',
    );
    expect(inWords('more than fsx.count allows')).toBe('more than number of file systems allows');
  });
});
