package dev.keel.marketplace.metering;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.marketplacemetering.MarketplaceMeteringClient;
import software.amazon.awssdk.services.marketplacemetering.model.BatchMeterUsageRequest;
import software.amazon.awssdk.services.marketplacemetering.model.BatchMeterUsageResponse;
import software.amazon.awssdk.services.marketplacemetering.model.UsageRecordResult;

/**
 * Sends usage records with BatchMeterUsage, at most {@value #BATCH_LIMIT} a call, and says what became of each.
 * Records of licences (the 2026 integration) go without a product code, legacy records with the listing's; within
 * one call no two records share a buyer, dimension and hour, so each result is matched to its record unambiguously.
 */
public final class UsageMeter {

    /** The most records AWS takes in one BatchMeterUsage call. */
    public static final int BATCH_LIMIT = 25;
    /** The longest a call may take, SDK retries included. */
    public static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

    private static final Logger log = LoggerFactory.getLogger(UsageMeter.class);

    private final MarketplaceMeteringClient client;
    private final String productCode;

    public UsageMeter(MarketplaceMeteringClient client, String productCode) {
        this.client = client;
        this.productCode = productCode;
    }

    /**
     * Every record's outcome, in calls made one after the other, all within {@code within}: a caller that claimed the
     * records lets its claim lapse only after that. A call AWS cannot serve now gives each of its records RETRY; a
     * call AWS refuses is made again record by record, so only the records AWS refuses alone are FAILED; the records
     * whose call would start after {@code within} are UNSENT, and a call is cut short when {@code within} runs out
     * (RETRY: AWS may have it, and answers it again identically).
     */
    public Map<UsageRecord, MeteringOutcome> send(List<UsageRecord> records, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        Map<UsageRecord, MeteringOutcome> outcomes = new LinkedHashMap<>();
        for (List<UsageRecord> batch : batches(records)) {
            outcomes.putAll(call(batch, deadline));
        }
        return outcomes;
    }

    /** Legacy and licence records apart, each call at most {@value #BATCH_LIMIT} records with distinct echoed keys. */
    static List<List<UsageRecord>> batches(List<UsageRecord> records) {
        List<List<UsageRecord>> batches = new ArrayList<>();
        List<Set<String>> keys = new ArrayList<>();
        for (UsageRecord record : records) {
            int target = -1;
            for (int i = 0; i < batches.size() && target < 0; i++) {
                List<UsageRecord> batch = batches.get(i);
                if (batch.size() < BATCH_LIMIT && batch.getFirst().legacy() == record.legacy()
                        && !keys.get(i).contains(record.echoedKey())) {
                    target = i;
                }
            }
            if (target < 0) {
                batches.add(new ArrayList<>());
                keys.add(new HashSet<>());
                target = batches.size() - 1;
            }
            batches.get(target).add(record);
            keys.get(target).add(record.echoedKey());
        }
        return batches;
    }

    /** {@code deadline}: {@link System#nanoTime()} by which the call has ended. */
    private Map<UsageRecord, MeteringOutcome> call(List<UsageRecord> batch, long deadline) {
        Duration left = Duration.ofNanos(deadline - System.nanoTime());
        if (left.isNegative() || left.isZero()) {
            return all(batch, MeteringOutcome.of(MeteringOutcome.Status.UNSENT, "Not sent: its time ran out"));
        }
        Duration timeout = left.compareTo(CALL_TIMEOUT) < 0 ? left : CALL_TIMEOUT;
        boolean legacy = batch.getFirst().legacy();
        BatchMeterUsageRequest.Builder request = BatchMeterUsageRequest.builder()
                .usageRecords(batch.stream().map(UsageMeter::toAws).toList());
        if (legacy) {
            request.productCode(productCode).overrideConfiguration(o -> o.apiCallTimeout(timeout));
        } else {
            request.overrideConfiguration(o -> o.apiCallTimeout(timeout).putExecutionAttribute(
                    LicenseArns.OF_RECORDS, batch.stream().map(UsageRecord::licenseArn).toList()));
        }
        BatchMeterUsageResponse response;
        try {
            response = client.batchMeterUsage(request.build());
        } catch (AwsServiceException e) {
            // Throttling and AWS's own errors pass; anything else about the request will not change on a resend.
            if (e.isThrottlingException() || e.statusCode() >= 500) {
                return all(batch, MeteringOutcome.of(MeteringOutcome.Status.RETRY, message(e)));
            }
            if (batch.size() > 1) {
                // One bad record fails its whole call: alone, each of the others is answered for itself.
                Map<UsageRecord, MeteringOutcome> outcomes = new LinkedHashMap<>();
                batch.forEach(record -> outcomes.putAll(call(List.of(record), deadline)));
                return outcomes;
            }
            log.error("AWS Marketplace refused the usage record {}: {}", batch.getFirst(), message(e));
            return all(batch, MeteringOutcome.of(MeteringOutcome.Status.FAILED, message(e)));
        } catch (SdkException e) {
            return all(batch, MeteringOutcome.of(MeteringOutcome.Status.RETRY, "AWS Marketplace could not be reached: "
                    + e.getMessage()));
        }
        return outcomes(batch, response);
    }

    private static Map<UsageRecord, MeteringOutcome> outcomes(List<UsageRecord> batch, BatchMeterUsageResponse response) {
        Map<String, UsageRecord> byKey = new HashMap<>();
        batch.forEach(r -> byKey.put(r.echoedKey(), r));
        Map<UsageRecord, MeteringOutcome> outcomes = new LinkedHashMap<>();
        for (UsageRecordResult result : response.results()) {
            UsageRecord record = byKey.get(echoedKey(result.usageRecord()));
            if (record != null) {
                outcomes.put(record, outcome(result));
            }
        }
        for (software.amazon.awssdk.services.marketplacemetering.model.UsageRecord unprocessed : response.unprocessedRecords()) {
            UsageRecord record = byKey.get(echoedKey(unprocessed));
            if (record != null) {
                outcomes.put(record, MeteringOutcome.of(MeteringOutcome.Status.RETRY, "AWS left the record unprocessed"));
            }
        }
        // A record AWS answered nothing about was not processed either.
        for (UsageRecord record : batch) {
            outcomes.putIfAbsent(record, MeteringOutcome.of(MeteringOutcome.Status.RETRY,
                    "AWS's answer did not mention the record"));
        }
        return outcomes;
    }

    private static MeteringOutcome outcome(UsageRecordResult result) {
        return switch (result.status()) {
            case SUCCESS -> MeteringOutcome.accepted(result.meteringRecordId());
            case DUPLICATE_RECORD -> MeteringOutcome.of(MeteringOutcome.Status.DUPLICATE,
                    "AWS already has a record for this hour with a different quantity");
            case CUSTOMER_NOT_SUBSCRIBED -> MeteringOutcome.of(MeteringOutcome.Status.CUSTOMER_NOT_SUBSCRIBED,
                    "AWS says the buyer is not subscribed to the product");
            case null, default -> MeteringOutcome.of(MeteringOutcome.Status.RETRY,
                    "AWS answered an unknown status " + result.statusAsString());
        };
    }

    private static software.amazon.awssdk.services.marketplacemetering.model.UsageRecord toAws(UsageRecord record) {
        var aws = software.amazon.awssdk.services.marketplacemetering.model.UsageRecord.builder()
                .timestamp(record.hour()).dimension(record.dimension()).quantity(record.quantity());
        return (record.legacy() ? aws.customerIdentifier(record.customerIdentifier())
                : aws.customerAWSAccountId(record.customerAwsAccountId())).build();
    }

    private static String echoedKey(software.amazon.awssdk.services.marketplacemetering.model.UsageRecord echoed) {
        String customer = echoed.customerIdentifier() != null ? echoed.customerIdentifier() : echoed.customerAWSAccountId();
        return customer + "|" + echoed.dimension() + "|" + echoed.timestamp();
    }

    private static Map<UsageRecord, MeteringOutcome> all(List<UsageRecord> batch, MeteringOutcome outcome) {
        Map<UsageRecord, MeteringOutcome> outcomes = new LinkedHashMap<>();
        batch.forEach(r -> outcomes.put(r, outcome));
        return outcomes;
    }

    private static String message(AwsServiceException e) {
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        String text = e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage();
        return code == null ? text : code + ": " + text;
    }
}
