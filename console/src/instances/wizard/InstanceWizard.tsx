import { useState, type ComponentType } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Wizard from '@cloudscape-design/components/wizard';
import { useCheckCreation } from '../../api/plans';
import { ApiError, describeError, mapFieldErrors, type FieldErrors } from '../../api/problem';
import type { CloudAccount, InstanceCreation, SizingCatalog } from '../../api/types';
import { strings } from '../../i18n/strings';
import { toCreation, validateBasics, validateNetwork, validateStorage, type SpecDraft } from '../specRules';
import { BasicsStep } from './BasicsStep';
import { defaultSubnets, NetworkStep } from './NetworkStep';
import { ReviewStep } from './ReviewStep';
import { StorageStep } from './StorageStep';
import type { StepKey, StepProps } from './types';

const w = strings.wizard;

export interface StepDefinition {
  title: string;
  stateKey: StepKey;
  StepContent: ComponentType<StepProps>;
  description?: string;
  /** What this step checks as the user types (specRules.ts); the API checks the rest before the step is left. */
  validate?: (draft: SpecDraft, catalog: SizingCatalog) => FieldErrors;
}

/** The wizard's steps, as data (as in the Cloudscape demos). */
export const STEPS: StepDefinition[] = [
  { title: w.basics.title, stateKey: 'basics', StepContent: BasicsStep, validate: (d) => validateBasics(d.basics) },
  { title: w.network.title, stateKey: 'network', StepContent: NetworkStep, validate: (d) => validateNetwork(d.network) },
  {
    title: w.storage.title,
    stateKey: 'storage',
    StepContent: StorageStep,
    validate: (d, catalog) => validateStorage(d.storage, d.network.subnets.length, catalog),
  },
  { title: w.review.title, stateKey: 'review', StepContent: ReviewStep },
];

/** The form fields the wizard can show an error on; other API fields go to the review step's alert. */
export const WIZARD_FIELDS: readonly string[] = [
  'name',
  'cloudAccountId',
  'region',
  'network',
  'network.vpcId',
  'network.subnets',
  'network.s3GatewayEndpoint',
  ...[0, 1, 2].flatMap((i) => [`network.subnets[${i}]`, `network.subnets[${i}].subnetId`, `network.subnets[${i}].availabilityZone`]),
  'wal',
  'wal.type',
  'aku',
  'fsx',
  'fsx.throughputMBps',
  'fsx.count',
];

/** Which step shows an error on `field` (an API field path). */
export function stepOfField(field: string): StepKey {
  if (field === 'name' || field === 'cloudAccountId' || field === 'region') return 'basics';
  if (field.startsWith('network')) return 'network';
  if (field.startsWith('wal') || field === 'aku' || field.startsWith('fsx')) return 'storage';
  return 'review';
}

export function initialDraft(accounts: CloudAccount[]): SpecDraft {
  const account = accounts.find((a) => a.status === 'VERIFIED') ?? accounts[0];
  const region = account?.regions[0] ?? '';
  return {
    basics: { name: '', cloudAccountId: account?.id ?? '', region, deletionProtection: true },
    network: { zones: 3, vpcId: '', subnets: defaultSubnets(3, region), s3GatewayEndpoint: 'CREATE' },
    storage: { walType: 'FSWAL', aku: '3', fsxThroughput: 384, fsxCount: '1' },
  };
}

export interface InstanceWizardProps {
  catalog: SizingCatalog;
  accounts: CloudAccount[];
  onSubmit: (body: InstanceCreation) => Promise<unknown>;
  onCancel: () => void;
  onStepChange?: (key: StepKey) => void;
  initial?: SpecDraft;
}

const stepIndex = (key: StepKey) => STEPS.findIndex((s) => s.stateKey === key);

export function InstanceWizard({ catalog, accounts, onSubmit, onCancel, onStepChange, initial }: InstanceWizardProps) {
  const [draft, setDraft] = useState<SpecDraft>(() => initial ?? initialDraft(accounts));
  const [activeIndex, setActiveIndex] = useState(0);
  const [shown, setShown] = useState<Set<StepKey>>(new Set());
  const [apiErrors, setApiErrors] = useState<FieldErrors>({});
  const [unmatched, setUnmatched] = useState<{ field: string; message: string }[]>([]);
  const [busy, setBusy] = useState(false);
  /** Why the API could not check the spec (it is unreachable or failed), shown with a retry. */
  const [checkFailure, setCheckFailure] = useState<unknown>(null);
  const checkCreation = useCheckCreation();

  const clientErrors = (index: number) => STEPS[index].validate?.(draft, catalog) ?? {};

  const go = (index: number) => {
    setActiveIndex(index);
    onStepChange?.(STEPS[index].stateKey);
  };

  const update: StepProps['update'] = (key, patch) => {
    setDraft((current) => {
      const next = { ...current, [key]: { ...current[key], ...patch } };
      // Keep the WAL type consistent with the zones (single zone → EBS; multi-zone → FSWAL/S3).
      if (key === 'network' && 'zones' in patch) {
        const allowed = catalog.walTypes.find((t) => t.type === next.storage.walType)?.zones ?? [];
        if (!allowed.includes(next.network.zones)) {
          next.storage = { ...next.storage, walType: next.network.zones === 1 ? 'EBS' : 'FSWAL' };
        }
      }
      if (key === 'basics' && 'region' in patch && patch.region !== current.basics.region) {
        // Zones belong to a region: the rows start over in the new one.
        next.network = { ...next.network, subnets: defaultSubnets(next.network.zones, next.basics.region) };
      }
      return next;
    });
    // An API error on this step's fields is stale once the user edits the step.
    setApiErrors((errors) => Object.fromEntries(Object.entries(errors).filter(([field]) => stepOfField(field) !== key)));
  };

  /** The first step before `upTo` whose instant checks fail, marking it to show its errors. */
  const firstInvalidStep = (upTo: number): number | undefined => {
    for (let i = 0; i < upTo; i++) {
      if (Object.keys(clientErrors(i)).length > 0) {
        setShown((keys) => new Set(keys).add(STEPS[i].stateKey));
        return i;
      }
    }
    return undefined;
  };

  /** Shows the API's field errors on their steps; true when one falls on a step before `upTo`. */
  const showApiErrors = (error: unknown, upTo: number): boolean => {
    const { fields, unmatched: rest } = mapFieldErrors(error, WIZARD_FIELDS);
    const passed = Object.keys(fields).filter((field) => stepIndex(stepOfField(field)) < upTo);
    if (passed.length === 0) return false;
    setApiErrors(Object.fromEntries(passed.map((field) => [field, fields[field]])));
    setUnmatched(rest);
    go(Math.min(...passed.map((field) => stepIndex(stepOfField(field)))));
    return true;
  };

  /**
   * Leaves the current step for `target`: the instant checks first, then the API's own (a dry run of the create),
   * whose errors on the steps left behind keep the user there. Errors on later steps are checked when those are left.
   */
  const forward = async (target: number) => {
    const invalid = firstInvalidStep(target);
    if (invalid !== undefined) return go(invalid);
    setBusy(true);
    setCheckFailure(null);
    try {
      await checkCreation(toCreation(draft));
      go(target);
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors.length > 0) {
        if (!showApiErrors(error, target)) go(target);
      } else {
        setCheckFailure(error);
      }
    } finally {
      setBusy(false);
    }
  };

  const submit = async () => {
    const invalid = firstInvalidStep(STEPS.length);
    if (invalid !== undefined) return go(invalid);
    setBusy(true);
    setUnmatched([]);
    try {
      await onSubmit(toCreation(draft));
    } catch (error) {
      const { fields, unmatched: rest } = mapFieldErrors(error, WIZARD_FIELDS);
      if (!showApiErrors(error, STEPS.length)) setUnmatched(rest);
      if (Object.keys(fields).length === 0 && rest.length === 0) throw error;
    } finally {
      setBusy(false);
    }
  };

  const goToStep = (key: StepKey) => go(stepIndex(key));

  return (
    <Wizard
      data-testid="create-wizard"
      activeStepIndex={activeIndex}
      isLoadingNextStep={busy}
      submitButtonText={busy ? w.submitting : w.submit}
      allowSkipTo={false}
      i18nStrings={{
        stepNumberLabel: w.stepNumber,
        collapsedStepsLabel: w.collapsedSteps,
        skipToButtonLabel: (step) => w.skipTo(step.title),
        navigationAriaLabel: w.navigationLabel,
        cancelButton: strings.common.cancel,
        previousButton: strings.common.previous,
        nextButton: strings.common.next,
        optional: w.optional,
      }}
      onCancel={onCancel}
      onSubmit={() => void submit().catch(() => undefined)}
      onNavigate={({ detail }) => {
        const target = detail.requestedStepIndex;
        if (target > activeIndex) return void forward(target);
        setCheckFailure(null);
        go(target);
      }}
      steps={STEPS.map((step, index) => {
        const errors: FieldErrors = {
          ...(shown.has(step.stateKey) ? clientErrors(index) : {}),
          ...Object.fromEntries(Object.entries(apiErrors).filter(([field]) => stepOfField(field) === step.stateKey)),
        };
        const Content = step.StepContent;
        return {
          title: step.title,
          content: (
            <div data-testid={`wizard-step-${step.stateKey}`}>
              <SpaceBetween size="l">
                {checkFailure !== null && index === activeIndex && (
                  <Alert
                    type="error"
                    header={w.checkFailed}
                    data-testid="wizard-check-failed"
                    action={<Button onClick={() => void forward(index + 1)}>{strings.common.retry}</Button>}
                  >
                    {describeError(checkFailure)}
                  </Alert>
                )}
                <Content
                  draft={draft}
                  update={update}
                  errors={errors}
                  catalog={catalog}
                  accounts={accounts}
                  goToStep={goToStep}
                  unmatched={unmatched}
                />
              </SpaceBetween>
            </div>
          ),
        };
      })}
    />
  );
}
