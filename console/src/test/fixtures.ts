import type { CloudAccount, CostEstimate, Instance, Organization, Plan, SizingCatalog, Usage } from '../api/types';

/** Catalog v1, as in the contract's example. */
export const catalogV1: SizingCatalog = {
  version: 1,
  aku: { min: 3, max: 500, writeMiBps: 20, readMiBps: 20, requestsPerSecond: 800, partitions: 1125 },
  fsx: [
    { throughputMBps: 384, kafkaWriteMiBps: 150, benchmarked: true },
    { throughputMBps: 768, kafkaWriteMiBps: 300, benchmarked: true },
    { throughputMBps: 1536, kafkaWriteMiBps: 600, benchmarked: true },
    { throughputMBps: 3072, kafkaWriteMiBps: null, benchmarked: false },
    { throughputMBps: 6144, kafkaWriteMiBps: null, benchmarked: false },
  ],
  fsxMaxCount: 10,
  walTypes: [
    { type: 'EBS', zones: [1], description: 'A small gp3 volume per broker.' },
    { type: 'S3', zones: [1, 3], description: 'WAL written to S3.' },
    { type: 'FSWAL', zones: [3], description: 'FSx for NetApp ONTAP as the WAL.' },
  ],
  regions: ['us-east-1', 'us-east-2', 'eu-west-1'],
  compute: [{ architecture: 'arm64', instanceType: 'm7g.large', akuPerBroker: 1.16, minBrokers: 3 }],
  brokerVersions: [
    { version: '1.7.4', walTypes: ['S3'], default: true, image: 'automqinc/automq:1.7.4@sha256:68bf5df674ab9755da51f5200c152df391b0968aeeaf9ec4d12619517cd1234f' },
    { version: '1.4.1', walTypes: ['EBS', 'S3', 'FSWAL'], default: false, image: null },
  ],
  listing: { usdPerAkuHour: 0.1 },
  prices: {},
  costModel: {},
};

/** A later catalog with another AKU definition, to prove nothing is hard-coded. */
export const catalogV2: SizingCatalog = {
  ...catalogV1,
  version: 2,
  aku: { min: 3, max: 500, writeMiBps: 30, readMiBps: 60, requestsPerSecond: 1000, partitions: 1500 },
};

export const account: CloudAccount = {
  id: '5a0c2d4e-8f1b-4c3a-9e7d-6b2a1f0c3d84',
  name: 'prod-analytics',
  awsAccountId: '123456789012',
  roleArn: 'arn:aws:iam::123456789012:role/KeelControlPlane',
  externalId: 'keel-3f9a1c7e5b2d4086',
  regions: ['us-east-1', 'eu-west-1'],
  status: 'VERIFIED',
  verification: { checkedAt: '2026-11-23T09:14:03Z', missingActions: [], message: null },
  createdAt: '2026-11-23T09:14:02Z',
};

/** The same account after a check found the role lacking two actions. */
export const failedAccount: CloudAccount = {
  ...account,
  status: 'VERIFICATION_FAILED',
  verification: {
    checkedAt: '2026-11-23T09:14:03Z',
    missingActions: ['ec2:RunInstances', 'fsx:CreateFileSystem'],
    message:
      "The role does not allow 2 action(s) Keel needs: ec2:RunInstances, fsx:CreateFileSystem. Update the role's policy (the current onboarding template has them) and verify again.",
  },
};

export function organization(role: Organization['role']): Organization {
  return {
    id: '0b7f6c2e-4a51-4d0e-9a7b-2f3c8d1e5a60',
    slug: 'acme',
    name: 'Acme Corp',
    role,
    externalId: 'keel-3f9a1c7e5b2d4086',
    user: { subject: 's', username: `acme-${role}`, email: null },
    memberships: [{ slug: 'acme', role }],
  };
}

export const runningInstance: Instance = {
  id: '8e3d1f27-6c4b-4a9e-b0d5-3f2a7c1e9b46',
  name: 'orders-prod',
  cloudAccountId: account.id,
  region: 'us-east-1',
  state: 'RUNNING',
  spec: {
    network: {
      vpcId: 'vpc-0a1b2c3d4e5f67890',
      subnets: [
        { availabilityZone: 'us-east-1a', subnetId: 'subnet-0123456789abcdef0' },
        { availabilityZone: 'us-east-1b', subnetId: 'subnet-0fedcba9876543210' },
        { availabilityZone: 'us-east-1c', subnetId: 'subnet-0a0b0c0d0e0f01234' },
      ],
      s3GatewayEndpoint: 'CREATE',
    },
    wal: { type: 'FSWAL' },
    aku: 6,
    fsx: { throughputMBps: 384, count: 1 },
    brokerVersion: '1.4.1',
    catalogVersion: 1,
    listenerSecurity: 'SASL_SSL',
  },
  specVersion: 3,
  capacity: { writeMiBps: 120, readMiBps: 120, requestsPerSecond: 4800, partitions: 6750 },
  sizing: { instanceType: 'm7g.large', brokerCount: 6 },
  inventory: { bootstrapServers: '10.0.1.17:9092', brokers: [], resources: [] },
  conditions: [],
  createdAt: '2026-11-23T09:20:00Z',
  updatedAt: '2026-11-24T10:15:47Z',
  deletionProtection: false,
  dataRetainedUntil: null,
  connection: {
    bootstrapServers: '10.0.1.17:9092',
    securityProtocol: 'SASL_SSL',
    saslMechanism: 'SCRAM-SHA-512',
    caCertificateUrl: '/instances/8e3d1f27-6c4b-4a9e-b0d5-3f2a7c1e9b46/ca-certificate',
  },
};

/** The same instance created with the development flag: plaintext, nobody authenticated. */
export const plaintextInstance: Instance = {
  ...runningInstance,
  spec: { ...runningInstance.spec, listenerSecurity: 'PLAINTEXT_UNAUTHENTICATED' },
  connection: { bootstrapServers: '10.0.1.17:9092', securityProtocol: 'PLAINTEXT', saslMechanism: null, caCertificateUrl: null },
};

/** What creating a 3-zone FSWAL instance makes (shortened). */
export const creationPlan: Plan = {
  kind: 'CREATE',
  dataRetainedUntil: null,
  changes: [
    { action: 'CREATE', resourceType: 's3-bucket', name: 'data-bucket', id: null, reason: null },
    { action: 'CREATE', resourceType: 'fsx-file-system', name: 'wal-1', id: null, reason: null },
    { action: 'CREATE', resourceType: 'ec2-instance', name: 'broker-1', id: null, reason: null },
  ],
  summary: { create: 3, update: 0, replace: 0, delete: 0 },
};

/**
 * An estimate (shortened) whose diskless side costs `totalMonthlyUsd` in AWS resources and `feeMonthlyUsd` in Keel's
 * fee, against $9,000 of self-managed Kafka.
 */
export function costEstimate(totalMonthlyUsd = 1200, feeMonthlyUsd = 0): CostEstimate {
  const kafkaMonthlyUsd = 9000;
  const savings = (usd: number) => Math.round((1 - usd / kafkaMonthlyUsd) * 10_000) / 100;
  return {
    currency: 'USD',
    catalogVersion: 1,
    region: 'us-east-1',
    workload: { writeMiBps: 120, readMiBps: 120, retentionHours: 72 },
    assumptions: [
      {
        name: 'purchaseOption',
        value: 'ON_DEMAND',
        source: 'DEFAULT',
        statement: 'Self-managed Kafka’s r5.xlarge brokers are priced on demand, $0.252 an hour.',
      },
      {
        name: 'replicationFactor',
        value: '3',
        source: 'MODEL',
        statement: 'Self-managed Kafka keeps 3 replicas of every partition, each in a different zone when there are 3.',
      },
    ],
    diskless: {
      lines: [
        { item: 'compute', description: '6 × m7g.large on demand', quantity: 6, unit: 'instances', monthlyUsd: 357 },
        { item: 's3-api', description: 'S3 PUT and GET requests', quantity: 91_928_671.88, unit: 'requests', monthlyUsd: 38.35 },
      ],
      totalMonthlyUsd,
    },
    serviceFee: {
      item: 'service-fee',
      description: 'Keel at $0.10 per AKU-hour (the listing’s price)',
      quantity: feeMonthlyUsd * 10,
      unit: 'AKU-hours',
      monthlyUsd: feeMonthlyUsd,
    },
    selfManagedKafka: {
      lines: [{ item: 'compute', description: '12 × r5.xlarge on demand', quantity: 12, unit: 'instances', monthlyUsd: 2207 }],
      totalMonthlyUsd: kafkaMonthlyUsd,
    },
    savingsPercent: savings(totalMonthlyUsd),
    savingsPercentWithServiceFee: savings(totalMonthlyUsd + feeMonthlyUsd),
  };
}

/** November's usage up to the 23rd: `orders` scaled from 3 to 6 AKU and still running, `clicks` ran half an hour. */
export const usage: Usage = {
  from: '2026-11-01T00:00:00Z',
  to: '2026-11-23T00:00:00Z',
  akuHours: 2486,
  instances: [
    {
      instanceId: '8e3d1f27-6c4b-4a9e-b0d5-3f2a7c1e9b46',
      name: 'orders',
      akuHours: 2484,
      periods: [
        { aku: 3, from: '2026-11-01T00:00:00Z', to: '2026-11-10T12:00:00Z', running: false },
        { aku: 6, from: '2026-11-10T12:00:00Z', to: '2026-11-23T00:00:00Z', running: true },
      ],
    },
    { instanceId: '1f0c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b', name: 'clicks', akuHours: 2, periods: [{ aku: 4, from: '2026-11-02T00:00:00Z', to: '2026-11-02T00:30:00Z', running: false }] },
  ],
};
