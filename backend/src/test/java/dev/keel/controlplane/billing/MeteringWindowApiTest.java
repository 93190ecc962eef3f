package dev.keel.controlplane.billing;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.TestEnvironment;
import dev.keel.marketplace.metering.UsageMeter;
import dev.keel.marketplace.metering.UsageRecord;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A metering run against the test stack's AWS API emulator, which keeps AWS's rules: hours past AWS's 6-hour window,
 * and an hour AWS already has with a different quantity.
 */
class MeteringWindowApiTest extends ApiTest {

    @Autowired
    MeteringRun run;
    @Autowired
    UsageMeter meter;
    @Value("${keel.billing.metering.margin}")
    Duration margin;

    @Test
    void hoursPastTheWindowFailLoudlyAndAnHourAwsHasWithAnotherQuantityIsNeverSentAgain() throws Exception {
        MeteredBuyers buyers = new MeteredBuyers(TestEnvironment.databaseUrl());
        MeteredBuyers.Buyer buyer = buyers.subscribe(1, Duration.ofMinutes(8 * 60 + 30), Duration.ofMinutes(140))
                .getFirst();
        try {
            Map<Instant, Integer> expected = buyer.expectedHours(buyers.knownUntil().minus(margin));
            Instant newest = Collections.max(expected.keySet());
            // AWS already has the newest hour, with one AKU-minute more than the ledger will say.
            UsageRecord other = new UsageRecord(buyer.account(), buyer.licenseArn(), null, MeteringRun.DIMENSION,
                    newest, expected.get(newest) + 1);
            assertThat(meter.send(List.of(other), UsageMeter.CALL_TIMEOUT).get(other).meteringRecordId()).isNotNull();

            Instant before = Instant.now();
            run.run();
            Instant after = Instant.now();
            run.run();

            Map<Instant, MeteredBuyers.Ledgered> ledger = buyers.ledger(buyer);
            assertThat(ledger.keySet()).containsAll(expected.keySet());
            int expired = 0;
            for (Instant hour : expected.keySet()) {
                MeteredBuyers.Ledgered row = ledger.get(hour);
                assertThat(row.quantity()).as("quantity of " + hour).isEqualTo(expected.get(hour));
                if (!hour.plus(MeteringRun.AWS_WINDOW).isAfter(before)) {
                    expired++;
                    assertThat(row.state()).as(hour + " is past the window").isEqualTo("FAILED");
                    assertThat(row.lastError()).isEqualTo(MeteringRun.EXPIRED);
                    assertThat(row.attempts()).as("never sent").isZero();
                } else if (hour.equals(newest)) {
                    assertThat(row.state()).isEqualTo("DUPLICATE");
                    assertThat(row.attempts()).as("not sent again by the second run").isEqualTo(1);
                } else if (hour.plus(MeteringRun.AWS_WINDOW).isAfter(after)) {
                    assertThat(row.state()).as(hour + " is within the window").isEqualTo("ACCEPTED");
                }
            }
            assertThat(expired).as("hours linked 8.5 hours ago that are past the window").isGreaterThanOrEqualTo(2);

            List<JsonNode> received = buyers.received(buyer);
            assertThat(received).noneMatch(r -> !Instant.parse(r.get("timestamp").asString())
                    .plus(MeteringRun.AWS_WINDOW).isAfter(before));
            JsonNode kept = received.stream().filter(r -> Instant.parse(r.get("timestamp").asString()).equals(newest))
                    .findFirst().orElseThrow();
            assertThat(kept.get("quantity").asInt()).as("AWS keeps the quantity it had").isEqualTo(expected.get(newest) + 1);
        } finally {
            buyers.forget(buyer);
        }
    }

    @Test
    void anEndedAgreementsLastHourIsMeteredUpToItsEndOnceTheHourIsOver() throws Exception {
        MeteredBuyers buyers = new MeteredBuyers(TestEnvironment.databaseUrl());
        // The last hour a run writes now, and the one before: linked 25 minutes before it, ended 20 minutes into it.
        Instant last = buyers.knownUntil().minus(margin).truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1));
        Instant linked = last.minus(Duration.ofMinutes(25));
        MeteredBuyers.Buyer buyer = buyers.subscribe(1, linked, linked.plus(Duration.ofMinutes(10))).getFirst();
        try {
            MeteredBuyers.Buyer ended = buyers.end(buyer, last.plus(Duration.ofMinutes(20)));

            run.run();

            Map<Instant, Integer> expected = ended.expectedHours(last.plus(Duration.ofHours(1)));
            assertThat(expected).as("3 AKU for 10 minutes, then 6 for 15; then 6 for 20")
                    .isEqualTo(Map.of(last.minus(Duration.ofHours(1)), 120, last, 120));
            Map<Instant, MeteredBuyers.Ledgered> ledger = buyers.ledger(ended);
            assertThat(ledger.keySet()).as("every hour up to the end, and none after").isEqualTo(expected.keySet());
            expected.forEach((hour, quantity) -> {
                assertThat(ledger.get(hour).quantity()).as("quantity of " + hour).isEqualTo(quantity);
                assertThat(ledger.get(hour).state()).isEqualTo("ACCEPTED");
            });
            assertThat(buyers.received(ended)).hasSameSizeAs(expected.keySet());
        } finally {
            buyers.forget(buyer);
        }
    }
}
