import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { env, expect, produceAtOnce, RUN_ID, test } from './fixtures';

// The keel CLI against the whole product: what `instances create --wait` prints is enough for a client to produce
// the moment it returns.
const home = mkdtempSync(join(tmpdir(), 'keel-e2e-cli-'));

/** Runs the keel binary as a user would, its configuration under a home of its own; fails on a non-zero exit. */
function keel(...args: string[]): { stdout: string; stderr: string } {
  const run = spawnSync(env('E2E_KEEL'), args, {
    encoding: 'utf8',
    timeout: 900_000,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      KEEL_API_URL: `${env('E2E_BACKEND_URL')}/api/v1`,
      KEEL_ISSUER: `${env('KEEL_KEYCLOAK_URL')}/realms/byoc`,
    },
  });
  expect(run.status, `keel ${args.join(' ')}:\n${run.stdout}\n${run.stderr}`).toBe(0);
  return { stdout: run.stdout, stderr: run.stderr };
}

test('keel instances create --wait returns when a client with what it printed produces at once', async () => {
  test.setTimeout(900_000);
  keel('login', '--client-id', 'keel-automation-demo', '--client-secret', 'keel-automation-demo-secret');
  const roleArn = env('E2E_ROLE_ARN');
  const account = `e2e-cli-${RUN_ID}`;
  keel('cloud-accounts', 'register', '--name', account, '--aws-account-id', roleArn.split(':')[4], '--role-arn', roleArn,
    '--region', 'us-east-1');
  const spec = join(home, 'instance.json');
  const [subnet] = env('E2E_SUBNETS').split(',');
  const name = `e2e-cli-${RUN_ID}`;
  writeFileSync(spec, JSON.stringify({
    name,
    cloudAccountId: JSON.parse(keel('cloud-accounts', 'get', account, '-o', 'json').stdout).id,
    region: 'us-east-1',
    network: { vpcId: env('E2E_VPC_ID'), subnets: [{ availabilityZone: 'us-east-1a', subnetId: subnet }] },
    wal: { type: 'S3' },
    aku: 3,
  }));
  try {
    const created = keel('instances', 'create', '-f', spec, '--wait', '-o', 'json');
    expect(JSON.parse(created.stdout).state).toBe('SUCCEEDED');
    const password = created.stderr.match(/Kafka user admin, password (\S+)/)?.[1] ?? '';
    const bootstrap = created.stderr.match(/Bootstrap servers (\S+)/)?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(32);
    expect(bootstrap.split(',')).toHaveLength(3);
    const ca = keel('instances', 'ca-certificate', name).stdout;
    await produceAtOnce(bootstrap, 'admin', password, ca, `cli-at-once-${RUN_ID}`);
  } finally {
    keel('instances', 'delete', name, '--yes', '--wait');
    keel('cloud-accounts', 'delete', account, '--yes');
  }
});
