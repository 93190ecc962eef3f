package dev.keel.marketplace.metering;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UsageMeterTest {

    private static final Instant HOUR = Instant.parse("2026-11-25T10:00:00Z");

    @Test
    void batchesHoldAtMostTwentyFiveRecordsAndNeverTwoOfOneBuyerDimensionAndHour() {
        List<UsageRecord> records = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            records.add(new UsageRecord("1111222233" + (10 + i), "arn:l-" + i, null, "aku_minutes", HOUR, i));
        }
        // Two licences of one account (concurrent agreements) in the same hour: AWS's results do not echo the licence.
        records.add(new UsageRecord("111122223310", "arn:l-second", null, "aku_minutes", HOUR, 1));
        records.add(new UsageRecord(null, null, "cust-legacy", "aku_minutes", HOUR, 2));

        List<List<UsageRecord>> batches = UsageMeter.batches(records);

        assertThat(batches).hasSize(3);
        assertThat(batches.get(0)).hasSize(25);
        assertThat(batches.get(1)).hasSize(6).extracting(UsageRecord::licenseArn).contains("arn:l-second");
        assertThat(batches.get(2)).containsExactly(records.getLast());
        assertThat(batches).allSatisfy(b -> assertThat(b.stream().map(UsageRecord::echoedKey).distinct()).hasSameSizeAs(b));
    }

    @Test
    void aRecordIsForTheStartOfAnHourAndNamesItsBuyer() {
        assertThatThrownBy(() -> new UsageRecord("111122223333", "arn:l", null, "aku_minutes", HOUR.plusSeconds(60), 1))
                .hasMessageContaining("start of an hour");
        assertThatThrownBy(() -> new UsageRecord("111122223333", null, null, "aku_minutes", HOUR, 1))
                .hasMessageContaining("legacy customer identifier");
    }
}
