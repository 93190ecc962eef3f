package dev.keel.controlplane.cloudaccounts;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.keel.controlplane.audit.AuditLog;
import dev.keel.controlplane.catalog.SizingCatalogs;
import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.idempotency.ChangeAnswers;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;
import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.FieldError;
import dev.keel.controlplane.shared.Page;
import dev.keel.provisioner.AccountNetwork;
import dev.keel.provisioner.AccountVerification;
import dev.keel.provisioner.ProvisioningDriver;
import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ProvisioningTarget;

@Service
public class CloudAccounts {

    private static final Logger log = LoggerFactory.getLogger(CloudAccounts.class);

    private static final Pattern NAME = Pattern.compile("^[a-z][a-z0-9-]{1,62}[a-z0-9]$");
    private static final Pattern ACCOUNT_ID = Pattern.compile("^[0-9]{12}$");
    /** An IAM role ARN in a partition Keel can work in: a path of printable characters, a name of IAM's characters. */
    private static final Pattern ROLE_ARN =
            Pattern.compile("^arn:(aws|aws-cn|aws-us-gov):iam::([0-9]{12}):role/([!-~]*/)?[A-Za-z0-9+=,.@_-]{1,64}$");
    private static final int ROLE_ARN_MAX_LENGTH = 2048;

    private final JdbcClient jdbc;
    private final SizingCatalogs catalogs;
    private final AuditLog audit;
    private final List<CloudAccountUsage> usages;
    private final ProvisioningDriver driver;
    private final ChangeAnswers answers;

    CloudAccounts(JdbcClient jdbc, SizingCatalogs catalogs, AuditLog audit, List<CloudAccountUsage> usages,
                  ProvisioningDriver driver, ChangeAnswers answers) {
        this.jdbc = jdbc;
        this.catalogs = catalogs;
        this.audit = audit;
        this.usages = usages;
        this.driver = driver;
        this.answers = answers;
    }

    public Optional<CloudAccount> find(UUID organizationId, UUID id) {
        return jdbc.sql("""
                SELECT a.*, o.external_id FROM cloud_accounts a JOIN organizations o ON o.id = a.organization_id
                WHERE a.organization_id = ? AND a.id = ? AND a.deleted_at IS NULL
                """)
                .params(organizationId, id)
                .query(this::account)
                .optional();
    }

    /**
     * The account as it was registered, also once deleted: the data bucket a deleted instance keeps in it is still
     * deleted through its role when its retention ends.
     */
    public CloudAccount registered(UUID organizationId, UUID id) {
        return jdbc.sql("""
                SELECT a.*, o.external_id FROM cloud_accounts a JOIN organizations o ON o.id = a.organization_id
                WHERE a.organization_id = ? AND a.id = ?
                """)
                .params(organizationId, id)
                .query(this::account)
                .optional()
                .orElseThrow(() -> ApiException.notFound("Cloud account", id));
    }

    public CloudAccount get(UUID organizationId, UUID id) {
        return find(organizationId, id).orElseThrow(() -> ApiException.notFound("Cloud account", id));
    }

    Page<CloudAccount> list(UUID organizationId, Cursor after, int limit) {
        List<CloudAccount> accounts = Cursor.bind(jdbc.sql("""
                SELECT a.*, o.external_id FROM cloud_accounts a JOIN organizations o ON o.id = a.organization_id
                WHERE a.organization_id = :org AND a.deleted_at IS NULL
                  AND (CAST(:afterTime AS timestamptz) IS NULL OR (a.created_at, a.id) < (:afterTime, :afterId))
                ORDER BY a.created_at DESC, a.id DESC
                LIMIT :limit
                """), after)
                .param("org", organizationId)
                .param("limit", limit + 1)
                .query(this::account)
                .list();
        return Cursor.page(accounts, limit, a -> new Cursor(a.createdAt(), a.id()));
    }

    @Transactional
    CloudAccount register(Caller caller, CloudAccountRegistration registration) {
        validate(registration);
        UUID id = UUID.randomUUID();
        try {
            jdbc.sql("""
                    INSERT INTO cloud_accounts (id, organization_id, name, aws_account_id, role_arn, regions, status)
                    VALUES (?, ?, ?, ?, ?, ?, 'PENDING_VERIFICATION')
                    """)
                    .params(id, caller.organizationId(), registration.name(), registration.awsAccountId(),
                            registration.roleArn(), registration.regions().toArray(String[]::new))
                    .update();
        } catch (DuplicateKeyException e) {
            boolean nameTaken = e.getMessage() != null && e.getMessage().contains("cloud_accounts_name_per_org");
            throw nameTaken
                    ? ApiException.of(ProblemType.NAME_TAKEN, "name", "A cloud account named " + registration.name() + " already exists.")
                    : ApiException.of(ProblemType.ROLE_ARN_TAKEN, "roleArn", "Role " + registration.roleArn() + " is already registered.");
        }
        CloudAccount account = get(caller.organizationId(), id);
        audit.record(caller, "cloud-account.register", "cloud-account", id, null, account);
        return answers.record(account);
    }

    /**
     * Checks the account's role now (assume it, simulate every action the provisioner calls) and
     * records the answer. Runs outside any transaction: it waits on AWS. When AWS cannot be reached
     * the account keeps its status and the message says to try again.
     */
    CloudAccount verify(Caller caller, UUID id) {
        CloudAccount before = get(caller.organizationId(), id);
        ProvisioningTarget.Account target = new ProvisioningTarget.Account(before.awsAccountId(), before.roleArn(),
                before.externalId());
        CloudAccount.Status status;
        AccountVerification verification;
        try {
            verification = holdsRole(id) ? driver.verify(target, before.regions().getFirst())
                    : AccountVerification.unreachable(target);
            status = verification.verified() ? CloudAccount.Status.VERIFIED : CloudAccount.Status.VERIFICATION_FAILED;
        } catch (ProvisioningException e) {
            log.warn("Verifying cloud account {} could not finish: {}", id, e.getMessage());
            status = before.status();
            verification = AccountVerification.failed("The role could not be checked this time (" + e.getMessage()
                    + "); verify again in a moment.");
        }
        jdbc.sql("""
                UPDATE cloud_accounts SET status = ?, missing_actions = ?, verification_message = ?,
                                          verification_checked_at = now()
                WHERE id = ?
                """)
                .params(status.name(), verification.missingActions().toArray(String[]::new), verification.message(), id)
                .update();
        CloudAccount after = get(caller.organizationId(), id);
        audit.record(caller, "cloud-account.verify", "cloud-account", id, before, after);
        return after;
    }

    /**
     * Whether the account holds its role, claiming it when no other live account does: the first registration of
     * a role holds it (V012). Of two claims racing, the unique index lets one through.
     */
    private boolean holdsRole(UUID id) {
        try {
            return jdbc.sql("""
                    UPDATE cloud_accounts a SET role_owner = true
                    WHERE a.id = ? AND (a.role_owner OR NOT EXISTS (
                        SELECT 1 FROM cloud_accounts o
                        WHERE o.role_identity = a.role_identity AND o.role_owner AND o.deleted_at IS NULL))
                    """)
                    .param(id)
                    .update() == 1;
        } catch (DuplicateKeyException e) {
            return false;
        }
    }

    /** The account's VPCs and subnets in one of its regions, read through its role: what an instance's network is chosen from. */
    AccountNetworks networks(Caller caller, UUID id, String region) {
        CloudAccount account = get(caller.organizationId(), id);
        if (region == null || !account.regions().contains(region)) {
            throw ApiException.validation("region", "must be one of cloud account " + account.name() + "'s regions "
                    + account.regions());
        }
        if (account.status() != CloudAccount.Status.VERIFIED) {
            throw ApiException.of(ProblemType.CLOUD_ACCOUNT_NOT_VERIFIED, "Cloud account " + account.name() + " is "
                    + account.status() + "; verify its role (POST /cloud-accounts/" + id + "/verify) first.");
        }
        return new AccountNetworks(region, networks(account, region));
    }

    /**
     * The VPCs and subnets of a verified account in {@code region}, read now through its role; 503 when
     * AWS does not answer, 409 when it refuses.
     */
    public List<AccountNetwork> networks(CloudAccount account, String region) {
        try {
            return driver.networks(new ProvisioningTarget.Account(account.awsAccountId(), account.roleArn(),
                    account.externalId()), region);
        } catch (ProvisioningException e) {
            throw problem(account, e);
        }
    }

    /** The answer to a read through the account's role that failed: 503 when AWS did not answer, 409 when it refused. */
    public ApiException problem(CloudAccount account, ProvisioningException e) {
        if (e.retryable()) {
            return ApiException.of(ProblemType.CLOUD_UNAVAILABLE, "AWS did not answer for account " + account.name()
                    + " (" + e.getMessage() + "); try again in a moment.");
        }
        return ApiException.of(ProblemType.CLOUD_REFUSED, e.getMessage());
    }

    /** Answers the account as it was before. */
    @Transactional
    CloudAccount delete(Caller caller, UUID id) {
        CloudAccount account = get(caller.organizationId(), id);
        long users = usages.stream().mapToLong(u -> u.liveInstancesUsing(caller.organizationId(), id)).sum();
        if (users > 0) {
            throw ApiException.of(ProblemType.CLOUD_ACCOUNT_IN_USE, "Cloud account " + account.name() + " still hosts " + users
                    + " instance(s); delete them first.");
        }
        jdbc.sql("UPDATE cloud_accounts SET deleted_at = now() WHERE id = ?").param(id).update();
        audit.record(caller, "cloud-account.delete", "cloud-account", id, account, null);
        return answers.record(account);
    }

    private void validate(CloudAccountRegistration registration) {
        List<FieldError> errors = new ArrayList<>();
        if (registration.name() == null || !NAME.matcher(registration.name()).matches()) {
            errors.add(new FieldError("name", "must be 3 to 64 lowercase letters, digits and hyphens, starting with a letter"));
        }
        if (registration.awsAccountId() == null || !ACCOUNT_ID.matcher(registration.awsAccountId()).matches()) {
            errors.add(new FieldError("awsAccountId", "must be the 12-digit AWS account id"));
        }
        Matcher arn = registration.roleArn() == null ? null : ROLE_ARN.matcher(registration.roleArn());
        if (registration.roleArn() != null && registration.roleArn().length() > ROLE_ARN_MAX_LENGTH) {
            errors.add(new FieldError("roleArn", "must be at most " + ROLE_ARN_MAX_LENGTH + " characters"));
        } else if (arn == null || !arn.matches()) {
            errors.add(new FieldError("roleArn", "must be an IAM role ARN in the aws, aws-cn or aws-us-gov partition, "
                    + "such as arn:aws:iam::123456789012:role/KeelControlPlane"));
        } else if (registration.awsAccountId() != null && !arn.group(2).equals(registration.awsAccountId())) {
            errors.add(new FieldError("roleArn", "belongs to account " + arn.group(2) + ", not " + registration.awsAccountId()));
        }
        List<String> regions = registration.regions() == null ? List.of() : registration.regions();
        List<String> supported = catalogs.current().regions();
        if (regions.isEmpty() || regions.size() > 20) {
            errors.add(new FieldError("regions", "must list 1 to 20 regions the control plane may use"));
        } else if (new HashSet<>(regions).size() != regions.size()) {
            errors.add(new FieldError("regions", "lists a region twice"));
        }
        for (int i = 0; i < regions.size(); i++) {
            if (!supported.contains(regions.get(i))) {
                errors.add(new FieldError("regions[" + i + "]", "'" + regions.get(i) + "' is not a supported region; choose from " + supported));
            }
        }
        if (!errors.isEmpty()) {
            throw ApiException.validation(errors);
        }
    }

    private CloudAccount account(ResultSet rs, int row) throws SQLException {
        Timestamp checked = rs.getTimestamp("verification_checked_at");
        return new CloudAccount(rs.getObject("id", UUID.class), rs.getString("name"), rs.getString("aws_account_id"),
                rs.getString("role_arn"), rs.getString("external_id"), strings(rs.getArray("regions")),
                CloudAccount.Status.valueOf(rs.getString("status")),
                new CloudAccount.Verification(checked == null ? null : checked.toInstant(),
                        strings(rs.getArray("missing_actions")), rs.getString("verification_message")),
                rs.getTimestamp("created_at").toInstant());
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }
}
