package dev.keel.controlplane.billing;

import java.net.URI;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.transaction.support.TransactionTemplate;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.TestEnvironment;
import dev.keel.marketplace.MarketplaceClients;
import dev.keel.marketplace.metering.UsageMeter;
import io.micrometer.core.instrument.MeterRegistry;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The metering run's edges against the test stack's AWS API emulator: usage billed to the AKU-minute as
 * {@code /billing/usage} counts it, a buyer who subscribes again within an hour, hours that leave AWS's window while
 * being sent, an ended buyer AWS no longer takes usage of, the age of what is still unsent, more than a thousand
 * records in one run, and a claim that outlasts slow calls.
 */
class MeteringEdgesApiTest extends ApiTest {

    @Autowired
    MeteringRun run;
    @Autowired
    MeteringLedger ledger;
    @Autowired
    CapacityLedger capacity;
    @Autowired
    AgreementEventLog agreementEvents;
    @Autowired
    TransactionTemplate transactions;
    @Autowired
    DatabaseTime database;
    @Autowired
    MeterRegistry meters;
    @Value("${keel.billing.metering.margin}")
    Duration margin;

    private MeteredBuyers buyers;
    /** The last hour a run writes now. */
    private Instant last;

    @BeforeEach
    void buyers() {
        buyers = new MeteredBuyers(TestEnvironment.databaseUrl());
        last = buyers.knownUntil().minus(margin).truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1));
    }

    @Test
    void whatReachesAwsAgreesWithBillingUsageToTheAkuMinute() throws Exception {
        ApiClient globex = api(OTHER_ORG_ADMIN);
        UUID organization = UUID.fromString(globex.get("/organizations/me").json().get("id").asString());
        Instant from = last.minus(Duration.ofHours(2));
        Database.withoutSubscriptions("globex");
        MeteredBuyers.Buyer buyer = buyers.subscribe(organization, from, from.plus(Duration.ofMinutes(1)));
        try {
            // 1 AKU from 31:20 past the hour before the last to 29:50 past the last: 28:40 and 29:50 of AKU-minutes,
            // which whole AKU-hours per hour billed as nothing; what globex's other instances ran adds to it.
            buyers.ranOnly(buyer, 1, last.minus(Duration.ofMinutes(28).plusSeconds(40)),
                    last.plus(Duration.ofMinutes(29).plusSeconds(50)));

            run.run();

            Map<Instant, MeteredBuyers.Ledgered> ledgered = buyers.ledger(buyer);
            assertThat(ledgered.keySet()).containsExactlyInAnyOrder(from, from.plus(Duration.ofHours(1)), last);
            int metered = ledgered.values().stream().mapToInt(MeteredBuyers.Ledgered::quantity).sum();
            assertThat(buyers.received(buyer)).extracting(r -> r.get("quantity").asInt())
                    .as("what AWS received").containsExactlyInAnyOrderElementsOf(
                            ledgered.values().stream().map(MeteredBuyers.Ledgered::quantity).toList());
            JsonNode usage = globex.get("/billing/usage?from=" + from + "&to=" + last.plus(Duration.ofHours(1))).json();
            double akuMinutes = usage.get("akuHours").asDouble() * 60;
            // Within an AKU-minute (what is carried on), give or take the thousandth of an AKU-hour usage is given to.
            assertThat(akuMinutes - metered).as("AKU-minutes used %s, metered %d", akuMinutes, metered)
                    .isGreaterThan(-0.06).isLessThan(1.06);
        } finally {
            buyers.forget(buyer);
            Database.withoutSubscriptions("globex");
        }
    }

    @Test
    void aBuyerWhoSubscribesAgainWithinAnHourIsMeteredOnceForIt() throws Exception {
        Instant linked = last.minus(Duration.ofMinutes(90));
        MeteredBuyers.Buyer first = buyers.subscribe(1, linked, linked.plus(Duration.ofMinutes(20))).getFirst();
        try {
            // The agreement ends 20 minutes into the last hour; the buyer buys again 40 minutes into it.
            MeteredBuyers.Buyer again = buyers.resubscribe(first, last.plus(Duration.ofMinutes(20)),
                    last.plus(Duration.ofMinutes(40)));

            run.run();

            Map<Instant, MeteredBuyers.Ledgered> ledgered = buyers.ledger(first);
            assertThat(ledgered.keySet()).containsExactlyInAnyOrder(last.minus(Duration.ofHours(2)),
                    last.minus(Duration.ofHours(1)), last);
            MeteredBuyers.Ledgered shared = ledgered.get(last);
            assertThat(shared.quantity()).as("6 AKU for 20 minutes under each agreement").isEqualTo(240);
            assertThat(shared.subscriptionId()).as("billed to the agreement that came last")
                    .isEqualTo(again.subscriptionId());
            assertThat(ledgered.values()).extracting(MeteredBuyers.Ledgered::state).containsOnly("ACCEPTED");
            List<JsonNode> received = buyers.received(first);
            assertThat(received).hasSize(3);
            JsonNode lastHour = received.stream()
                    .filter(r -> Instant.parse(r.get("timestamp").asString()).equals(last)).findFirst().orElseThrow();
            assertThat(lastHour.get("quantity").asInt()).isEqualTo(240);
            assertThat(lastHour.get("licenseArn").asString()).isEqualTo(again.licenseArn());
        } finally {
            buyers.forget(first);
        }
    }

    @Test
    void anHourThatLeavesAwsWindowWhileBeingSentIsUnknownAndOneNeverSentIsLost() throws Exception {
        MeteredBuyers.Buyer buyer = buyers.subscribe(1, Duration.ofMinutes(30), Duration.ofMinutes(20)).getFirst();
        Instant old = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(7));
        try {
            // A worker claimed one a moment ago and is sending it; the other waits for a retry that comes too late.
            record(buyer, old, "SENT", Instant.now());
            record(buyer, old.minus(Duration.ofHours(1)), "PENDING", Instant.now().plus(Duration.ofHours(1)));
            double unknown = count("unknown");
            double lost = count("expired");

            run.run();

            Map<Instant, MeteredBuyers.Ledgered> ledgered = buyers.ledger(buyer);
            assertThat(ledgered.get(old).state()).as("AWS may have it").isEqualTo("UNKNOWN");
            assertThat(ledgered.get(old).lastError()).isEqualTo(MeteringRun.UNKNOWN);
            assertThat(ledgered.get(old.minus(Duration.ofHours(1))).state()).isEqualTo("FAILED");
            assertThat(ledgered.get(old.minus(Duration.ofHours(1))).lastError()).isEqualTo(MeteringRun.EXPIRED);
            assertThat(count("unknown") - unknown).isEqualTo(1);
            assertThat(count("expired") - lost).as("only the one never sent is lost").isEqualTo(1);
        } finally {
            buyers.forget(buyer);
        }
    }

    @Test
    void aBuyerAwsSaysIsNotSubscribedIsRetriedUntilItsSubscriptionEndedAndThenNotBilledNorLost() throws Exception {
        MeteredBuyers.Buyer buyer = buyers.subscribe(1, last.minus(Duration.ofMinutes(30)), last).getFirst();
        try {
            buyers.unsubscribedAtAws(buyer);

            run.run();

            assertThat(buyers.ledger(buyer).values()).as("AWS may not know of the agreement yet")
                    .extracting(MeteredBuyers.Ledgered::state).containsOnly("PENDING");

            buyers.end(buyer, last.plus(Duration.ofHours(1)));
            buyers.jdbc().sql("UPDATE metering_records SET due_at = now() WHERE customer_aws_account_id = ?")
                    .param(buyer.account()).update();
            double notSubscribed = count("not_subscribed");
            double lost = count("expired");

            run.run();

            assertThat(buyers.ledger(buyer).values()).as("the agreement ended: AWS bills nothing more of it")
                    .extracting(MeteredBuyers.Ledgered::state).containsOnly("NOT_SUBSCRIBED");
            assertThat(count("not_subscribed") - notSubscribed).isEqualTo(buyers.ledger(buyer).size());
            assertThat(count("expired")).as("no revenue lost").isEqualTo(lost);
        } finally {
            buyers.forget(buyer);
        }
    }

    @Test
    void theOldestUnsentRecordsAgeIsAGauge() throws Exception {
        MeteredBuyers.Buyer buyer = buyers.subscribe(1, Duration.ofMinutes(30), Duration.ofMinutes(20)).getFirst();
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(2));
        try {
            record(buyer, hour, "PENDING", Instant.now().plus(Duration.ofHours(1)));

            String scraped = new ApiClient("http://localhost:" + managementPort, null).get("/actuator/prometheus").body();

            assertThat(scraped).contains("# TYPE keel_metering_oldest_unsent_age_seconds gauge");
            Matcher value = Pattern.compile("(?m)^keel_metering_oldest_unsent_age_seconds(?:\\{[^}]*})? (\\S+)$")
                    .matcher(scraped);
            assertThat(value.find()).as(scraped).isTrue();
            assertThat(Double.parseDouble(value.group(1))).as("at least this record's age")
                    .isGreaterThanOrEqualTo(Duration.between(hour, Instant.now()).toSeconds() - 1);
        } finally {
            buyers.forget(buyer);
        }
    }

    @Test
    void aRunSendsMoreThanAThousandRecordsEachBuyersInTheOrderOfItsHours() throws Exception {
        // 210 buyers of 5 hours each.
        List<MeteredBuyers.Buyer> many = buyers.subscribe(210, last.minus(Duration.ofHours(4)),
                last.minus(Duration.ofHours(2)));
        try {
            run.run();

            int accepted = 0;
            Map<String, List<JsonNode>> receivedByAccount = buyers.received();
            for (MeteredBuyers.Buyer buyer : many) {
                Map<Instant, MeteredBuyers.Ledgered> ledgered = buyers.ledger(buyer);
                for (Instant hour : buyer.expectedHours(last.plus(Duration.ofHours(1))).keySet()) {
                    accepted += ledgered.get(hour).state().equals("ACCEPTED") ? 1 : 0;
                }
                List<JsonNode> received = new ArrayList<>(receivedByAccount.get(buyer.account()));
                assertThat(received).extracting(r -> r.get("receipts").asInt()).containsOnly(1);
                received.sort(Comparator.comparing(r -> Instant.parse(r.get("timestamp").asString())));
                assertThat(received).extracting(r -> Instant.parse(r.get("receivedAt").asString()))
                        .as("the buyer's hours went out in their order").isSorted();
            }
            assertThat(accepted).as("every record, in one run").isEqualTo(210 * 5);
        } finally {
            many.forEach(buyers::forget);
        }
    }

    @Test
    void aClaimOutlastsTheSlowCallsItsRecordsAreSentInAndWhatCouldNotBeSentGoesBack() throws Exception {
        // 80 records, four calls' worth, for one sender whose every call takes 1.5 s to reach AWS; the claim lapses
        // after 4 s, so the third call would reach AWS after the claim lapsed.
        Duration claimTimeout = Duration.ofSeconds(4);
        List<MeteredBuyers.Buyer> slow = buyers.subscribe(16, last.minus(Duration.ofHours(4)),
                last.minus(Duration.ofHours(2)));
        List<String> accounts = slow.stream().map(MeteredBuyers.Buyer::account).toList();
        AtomicInteger arrived = new AtomicInteger();
        AtomicInteger arrivedLapsed = new AtomicInteger();
        ExecutionInterceptor slowNetwork = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                try {
                    Thread.sleep(1500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw AbortedException.create("the call was cut short before it reached AWS");
                }
                arrived.incrementAndGet();
                Integer lapsed = buyers.jdbc().sql("""
                                SELECT count(*) FROM metering_records WHERE state = 'SENT'
                                AND due_at <= now() - ? * interval '1 second' AND customer_aws_account_id = ANY (?)
                                """)
                        .params(claimTimeout.toSeconds(), accounts.toArray(String[]::new)).query(Integer.class).single();
                arrivedLapsed.addAndGet(lapsed);
            }
        };
        try (MarketplaceClients clients = new MarketplaceClients(new MarketplaceClients.Endpoints(
                URI.create(TestEnvironment.require("KEEL_MARKETPLACE_ENDPOINT")), null),
                MarketplaceClients.MARKETPLACE_REGION,
                StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")), List.of(slowNetwork))) {
            MeteringRun slowRun = new MeteringRun(ledger, capacity, agreementEvents,
                    new UsageMeter(clients.metering(), "keel-local-development"), transactions, database, meters,
                    claimTimeout, margin, 1, TestEnvironment.require("KEEL_MARKETPLACE_QUEUE_URL"));

            slowRun.run();

            assertThat(arrived).as("calls that reached AWS").hasValueGreaterThanOrEqualTo(2);
            assertThat(arrivedLapsed).as("claimed records whose claim had lapsed when their call reached AWS")
                    .hasValue(0);
            int received = 0;
            for (MeteredBuyers.Buyer buyer : slow) {
                List<JsonNode> got = buyers.received(buyer);
                assertThat(got).allSatisfy(r -> assertThat(r.get("receipts").asInt()).as("received once").isEqualTo(1));
                received += got.size();
                assertThat(buyers.ledger(buyer).values()).extracting(MeteredBuyers.Ledgered::state)
                        .as("sent, or back to send again").isSubsetOf("ACCEPTED", "PENDING");
            }
            assertThat(received).as("not everything in the time one claim gives").isLessThan(80).isPositive();
        } finally {
            slow.forEach(buyers::forget);
        }
    }

    /** A record of {@code buyer} for {@code hour} in {@code state}, due (or claimed) at {@code dueAt}. */
    private void record(MeteredBuyers.Buyer buyer, Instant hour, String state, Instant dueAt) {
        buyers.jdbc().sql("""
                        INSERT INTO metering_records (id, organization_id, subscription_id, customer_aws_account_id,
                                                      license_arn, dimension, hour, quantity, state, attempts, due_at,
                                                      created_at, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, 180, ?, ?, ?, now(), now())
                        """)
                .params(UUID.randomUUID(), buyer.organizationId(), buyer.subscriptionId(), buyer.account(),
                        buyer.licenseArn(), MeteringRun.DIMENSION, Timestamp.from(hour), state,
                        state.equals("SENT") ? 1 : 0, Timestamp.from(dueAt))
                .update();
    }

    private double count(String outcome) {
        return meters.counter("keel.metering.records", "outcome", outcome).count();
    }
}
