import { useState } from 'react';
import Alert from '@cloudscape-design/components/alert';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useSetBudget } from '../api/billing';
import { ApiError, describeError, mapFieldErrors } from '../api/problem';
import type { Budget, BudgetStatus } from '../api/types';
import { useSession } from '../app/session';
import { strings } from '../i18n/strings';

const s = strings.billing.budget;

/** The guardrails, in the order the form and the API list them. */
const LIMITS = ['monthlyAkuHours', 'maxAkuPerInstance', 'maxAkuPerOrganization'] as const;
type Limit = (typeof LIMITS)[number];
type Draft = Record<Limit, string>;

/** From this share of the monthly budget on, the Billing page warns. */
export const WARN_AT = 0.8;

const figure = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 });
const limit = (value: number | null) => (value === null ? s.noLimit : value.toLocaleString('en-US'));

function draftOf(status: BudgetStatus): Draft {
  return {
    monthlyAkuHours: status.monthlyAkuHours?.toString() ?? '',
    maxAkuPerInstance: status.maxAkuPerInstance?.toString() ?? '',
    maxAkuPerOrganization: status.maxAkuPerOrganization?.toString() ?? '',
  };
}

/** Each field left empty is no limit; anything else must be a whole number from 1 (the API checks the rest). */
function check(draft: Draft): { budget: Budget; errors: Partial<Record<Limit, string>> } {
  const budget: Budget = {};
  const errors: Partial<Record<Limit, string>> = {};
  for (const key of LIMITS) {
    const text = draft[key].trim();
    if (text === '') continue;
    if (!/^[0-9]+$/.test(text) || Number(text) < 1) errors[key] = s.wholeNumber;
    else budget[key] = Number(text);
  }
  return { budget, errors };
}

/** At 80 % of the monthly budget a warning, at 100 % an error: creates and scale-ups past it are refused. */
export function BudgetAlert({ status }: { status: BudgetStatus | undefined }) {
  const fraction = status?.budgetUsedFraction;
  if (status?.monthlyAkuHours == null || fraction == null || fraction < WARN_AT) return null;
  const used = figure(status.month.akuHoursUsed);
  const of = status.monthlyAkuHours.toLocaleString('en-US');
  return fraction >= 1 ? (
    <Alert type="error" header={s.reached} data-testid="budget-alert">
      {s.reachedBody(used, of)}
    </Alert>
  ) : (
    <Alert type="warning" header={s.near(Math.floor(fraction * 100))} data-testid="budget-alert">
      {s.nearBody(used, of)}
    </Alert>
  );
}

/** The organization's guardrails and the trial's figures: every member reads them, admins edit them. */
export function BudgetSection({ status }: { status: BudgetStatus }) {
  const { role } = useSession();
  const save = useSetBudget();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Limit, string>>>({});

  const submit = async () => {
    if (draft === null) return;
    const checked = check(draft);
    setErrors(checked.errors);
    if (Object.keys(checked.errors).length > 0) return;
    try {
      await save.mutateAsync(checked.budget);
      setDraft(null);
    } catch (error) {
      setErrors(Object.fromEntries(Object.entries(mapFieldErrors(error, LIMITS).fields)));
    }
  };
  const failure = save.error instanceof ApiError && save.error.fieldErrors.length > 0 ? null : save.error;

  const header = (
    <Header
      variant="h2"
      description={s.description}
      actions={
        role === 'admin' && draft === null ? (
          <Button data-testid="budget-edit" onClick={() => setDraft(draftOf(status))}>
            {s.edit}
          </Button>
        ) : undefined
      }
    >
      {s.title}
    </Header>
  );

  if (draft !== null) {
    return (
      <Container header={header}>
        <form onSubmit={(event) => { event.preventDefault(); void submit(); }}>
          <Form
            actions={
              <SpaceBetween direction="horizontal" size="xs">
                <Button formAction="none" variant="link" onClick={() => { setDraft(null); setErrors({}); save.reset(); }}>
                  {strings.common.cancel}
                </Button>
                <Button data-testid="budget-save" variant="primary" loading={save.isPending}>
                  {s.save}
                </Button>
              </SpaceBetween>
            }
            errorText={failure ? describeError(failure) : undefined}
          >
            <SpaceBetween size="m">
              {LIMITS.map((key) => (
                <FormField key={key} data-testid={`budget-form-${key}`} label={s.fields[key]} description={s.hints[key]} errorText={errors[key]}>
                  <Input
                    data-testid={`budget-${key}`}
                    type="number"
                    inputMode="numeric"
                    placeholder={s.noLimit}
                    value={draft[key]}
                    onChange={({ detail }) => setDraft((d) => (d === null ? d : { ...d, [key]: detail.value }))}
                  />
                </FormField>
              ))}
            </SpaceBetween>
          </Form>
        </form>
      </Container>
    );
  }

  const fraction = status.budgetUsedFraction;
  return (
    <Container header={header}>
      <SpaceBetween size="l">
        <KeyValuePairs
          columns={4}
          items={[
            {
              label: s.fields.monthlyAkuHours,
              value: <span data-testid="budget-monthly">{limit(status.monthlyAkuHours)}</span>,
            },
            {
              label: s.usedThisMonth,
              value: (
                <span data-testid="budget-used">
                  {fraction == null ? figure(status.month.akuHoursUsed) : s.usedOf(figure(status.month.akuHoursUsed), Math.round(fraction * 100))}
                </span>
              ),
            },
            { label: s.fields.maxAkuPerInstance, value: <span data-testid="budget-per-instance">{limit(status.maxAkuPerInstance)}</span> },
            { label: s.fields.maxAkuPerOrganization, value: <span data-testid="budget-per-organization">{limit(status.maxAkuPerOrganization)}</span> },
          ]}
        />
        {status.trial && (
          <Alert type="info" header={s.trial} data-testid="budget-trial">
            {s.trialBody(figure(status.trial.akuHoursUsed), status.trial.akuHours.toLocaleString('en-US'), status.trial.maxAku)}
          </Alert>
        )}
      </SpaceBetween>
    </Container>
  );
}
