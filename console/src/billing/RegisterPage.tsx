import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import KeyValuePairs from '@cloudscape-design/components/key-value-pairs';
import FormField from '@cloudscape-design/components/form-field';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Spinner from '@cloudscape-design/components/spinner';
import { useNavigate, useSearchParams } from 'react-router';
import { useLinkRegistration, useRegistration } from '../api/marketplace';
import { ApiError } from '../api/problem';
import { AppShell } from '../app/AppShell';
import { ErrorDetail, formatDate, LoadError } from '../app/common';
import { useNotifications } from '../app/notifications';
import { useSession } from '../app/session';
import { strings } from '../i18n/strings';

const r = strings.register;

/**
 * Where the registration URL sends a buyer from AWS Marketplace (`/register?reference=…`), signed in by then: for an
 * organization admin, the subscription the reference stands for and the button that links it. Only an admin may read
 * it, so anyone else is told who can, without asking the API.
 */
export default function RegisterPage() {
  const [params] = useSearchParams();
  const reference = params.get('reference');
  const session = useSession();
  const isAdmin = session.role === 'admin';
  const registration = useRegistration(reference, isAdmin);
  const link = useLinkRegistration();
  const navigate = useNavigate();
  const { notify } = useNotifications();
  const org = session.organization.slug;
  // The reference goes along, so the page comes back in the organization chosen.
  const elsewhere = session.organization.memberships.filter((m) => m.role === 'admin' && m.slug !== org);
  const switchTo = (slug: string) => session.switchOrganization(slug, `/register?reference=${encodeURIComponent(reference!)}`);

  const otherOrganizations = elsewhere.length > 0 && (
    <FormField label={r.otherOrganization} description={r.otherOrganizationHint}>
      <Select
        data-testid="register-organization"
        selectedOption={null}
        placeholder={r.chooseOrganization}
        options={elsewhere.map((m) => ({ value: m.slug, label: m.slug }))}
        onChange={({ detail }) => switchTo(detail.selectedOption.value!)}
      />
    </FormField>
  );

  const linkIt = () =>
    link.mutate(reference!, {
      onSuccess: () => {
        notify({ type: 'success', content: r.linked(org) });
        navigate('/billing');
      },
    });

  return (
    <AppShell
      breadcrumbs={[{ text: r.title, href: '/register' }]}
      content={
        <SpaceBetween size="l">
          <Header variant="h1" description={r.description}>
            {r.title}
          </Header>
          {reference === null ? (
            <Alert type="error" header={r.noReference} data-testid="register-state">
              {r.startAgain}
            </Alert>
          ) : !isAdmin ? (
            <>
              <Alert type="info" header={r.adminOnly(org)} data-testid="register-state">
                {r.adminOnlyBody(org, session.role)}
              </Alert>
              {otherOrganizations}
            </>
          ) : registration.error ? (
            <Unavailable error={registration.error} onRetry={() => void registration.refetch()} />
          ) : !registration.data ? (
            <Spinner size="large" />
          ) : (
            <>
              <Container header={<Header variant="h2">{r.subscription}</Header>}>
                <KeyValuePairs
                  columns={2}
                  items={[
                    { label: r.account, value: <span data-testid="register-account">{registration.data.customerAwsAccountId}</span> },
                    { label: r.licence, value: <span data-testid="register-licence">{registration.data.licenseArn ?? r.legacy(registration.data.customerIdentifier)}</span> },
                    { label: r.product, value: registration.data.productCode },
                    { label: r.expires, value: formatDate(registration.data.expiresAt) },
                  ]}
                />
              </Container>
              {otherOrganizations}
              <Container header={<Header variant="h2">{r.linkTo(org)}</Header>}>
                <SpaceBetween size="m">
                  <Box variant="p">{r.linkExplained(org)}</Box>
                  {link.error && (
                    <Alert type="error" header={r.linkFailed} data-testid="register-link-error">
                      <ErrorDetail error={link.error} />
                    </Alert>
                  )}
                  <Button variant="primary" data-testid="register-link" loading={link.isPending} onClick={linkIt}>
                    {r.link}
                  </Button>
                </SpaceBetween>
              </Container>
            </>
          )}
        </SpaceBetween>
      }
    />
  );
}

/**
 * A reference that is used, expired, unknown or another browser's says so, with what to do; anything else can be
 * retried.
 */
function Unavailable({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const kind = error instanceof ApiError ? (error.status === 404 ? 'not-found' : error.kind) : undefined;
  const known =
    kind === 'registration-used' || kind === 'registration-expired' || kind === 'registration-other-browser' || kind === 'not-found';
  if (!known) return <LoadError header={r.loadFailed} error={error} onRetry={onRetry} />;
  return (
    <Alert type={kind === 'registration-used' ? 'info' : 'warning'} header={r.states[kind]} data-testid="register-state">
      <SpaceBetween size="xs">
        <ErrorDetail error={error} />
        {kind !== 'registration-used' && <Box variant="p">{r.startAgain}</Box>}
      </SpaceBetween>
    </Alert>
  );
}
