import { useState, type ComponentType } from 'react';
import Wizard from '@cloudscape-design/components/wizard';
import { mapFieldErrors, type FieldErrors } from '../../api/problem';
import type { CloudAccount, InstanceCreation, SizingCatalog } from '../../api/types';
import { strings } from '../../i18n/strings';
import {
  toCreation,
  validateBasics,
  validateNetwork,
  validateStorage,
  type RuleContext,
  type SpecDraft,
} from '../specRules';
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
  /** Client-side rules of this step (the same as the API's, see specRules.ts). */
  validate?: (draft: SpecDraft, ctx: RuleContext) => FieldErrors;
}

/** The wizard's steps, as data (as in the Cloudscape demos). */
export const STEPS: StepDefinition[] = [
  { title: w.basics.title, stateKey: 'basics', StepContent: BasicsStep, validate: (d, ctx) => validateBasics(d.basics, ctx) },
  { title: w.network.title, stateKey: 'network', StepContent: NetworkStep, validate: (d) => validateNetwork(d.network, d.basics.region) },
  {
    title: w.storage.title,
    stateKey: 'storage',
    StepContent: StorageStep,
    validate: (d, ctx) => validateStorage(d.storage, d.network.subnets.length, ctx),
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
  const account = accounts[0];
  const region = account?.regions[0] ?? '';
  return {
    basics: { name: '', cloudAccountId: account?.id ?? '', region },
    network: { zones: 3, vpcId: '', subnets: defaultSubnets(3, region) },
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

export function InstanceWizard({ catalog, accounts, onSubmit, onCancel, onStepChange, initial }: InstanceWizardProps) {
  const [draft, setDraft] = useState<SpecDraft>(() => initial ?? initialDraft(accounts));
  const [activeIndex, setActiveIndex] = useState(0);
  const [shown, setShown] = useState<Set<StepKey>>(new Set());
  const [apiErrors, setApiErrors] = useState<FieldErrors>({});
  const [unmatched, setUnmatched] = useState<{ field: string; message: string }[]>([]);
  const [submitting, setSubmitting] = useState(false);

  const ctx: RuleContext = { catalog, account: accounts.find((a) => a.id === draft.basics.cloudAccountId) };
  const clientErrors = (index: number) => STEPS[index].validate?.(draft, ctx) ?? {};

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
        next.network = {
          ...next.network,
          subnets: next.network.subnets.map((sn, i) =>
            sn.availabilityZone === '' || sn.availabilityZone.startsWith(current.basics.region || '\u0000')
              ? { ...sn, availabilityZone: `${patch.region}${'abc'[i]}` }
              : sn,
          ),
        };
      }
      return next;
    });
    // An API error on this step's fields is stale once the user edits the step.
    setApiErrors((errors) => Object.fromEntries(Object.entries(errors).filter(([field]) => stepOfField(field) !== key)));
  };

  /** The first step before `upTo` whose rules fail, marking it to show its errors. */
  const firstInvalidStep = (upTo: number): number | undefined => {
    for (let i = 0; i < upTo; i++) {
      if (Object.keys(clientErrors(i)).length > 0) {
        setShown((keys) => new Set(keys).add(STEPS[i].stateKey));
        return i;
      }
    }
    return undefined;
  };

  const submit = async () => {
    const invalid = firstInvalidStep(STEPS.length);
    if (invalid !== undefined) return go(invalid);
    setSubmitting(true);
    setUnmatched([]);
    try {
      await onSubmit(toCreation(draft));
    } catch (error) {
      const { fields, unmatched: rest } = mapFieldErrors(error, WIZARD_FIELDS);
      setApiErrors(fields);
      setUnmatched(rest);
      const steps = Object.keys(fields).map((f) => STEPS.findIndex((s) => s.stateKey === stepOfField(f)));
      if (steps.length > 0) go(Math.min(...steps));
      if (steps.length === 0 && rest.length === 0) throw error;
    } finally {
      setSubmitting(false);
    }
  };

  const goToStep = (key: StepKey) => go(STEPS.findIndex((s) => s.stateKey === key));

  return (
    <Wizard
      data-testid="create-wizard"
      activeStepIndex={activeIndex}
      isLoadingNextStep={submitting}
      submitButtonText={submitting ? w.submitting : w.submit}
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
        if (target > activeIndex) {
          const invalid = firstInvalidStep(target);
          if (invalid !== undefined) return go(invalid);
        }
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
              <Content
                draft={draft}
                update={update}
                errors={errors}
                catalog={catalog}
                accounts={accounts}
                goToStep={goToStep}
                unmatched={unmatched}
              />
            </div>
          ),
        };
      })}
    />
  );
}
