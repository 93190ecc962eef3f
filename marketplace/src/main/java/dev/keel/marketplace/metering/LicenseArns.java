package dev.keel.marketplace.metering;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpRequest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Puts each usage record's {@code LicenseArn} into a BatchMeterUsage request. Since June 2026 a record names its
 * buyer by {@code CustomerAWSAccountId} and {@code LicenseArn} (in place of the request's {@code ProductCode}); the
 * SDK this project pins (2.40.2, the newest whose modules all resolve) has the account but not the licence, so the
 * licence is written into the JSON body here, before the request is signed.
 */
public final class LicenseArns implements ExecutionInterceptor {

    /** The licence of each record of the request, in the request's order. */
    static final ExecutionAttribute<List<String>> OF_RECORDS = new ExecutionAttribute<>("keel.marketplace.licenseArns");
    private static final ExecutionAttribute<byte[]> BODY = new ExecutionAttribute<>("keel.marketplace.licensedBody");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        byte[] licensed = licensed(context, attributes);
        return licensed == null ? context.httpRequest()
                : context.httpRequest().toBuilder().putHeader("Content-Length", String.valueOf(licensed.length)).build();
    }

    @Override
    public Optional<RequestBody> modifyHttpContent(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        byte[] licensed = licensed(context, attributes);
        return licensed == null ? context.requestBody() : Optional.of(RequestBody.fromBytes(licensed));
    }

    /** The body with each record's licence, made once: the SDK asks for the request and its content separately. */
    private static byte[] licensed(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        List<String> licences = attributes.getAttribute(OF_RECORDS);
        if (licences == null || context.requestBody().isEmpty()) {
            return null;
        }
        byte[] made = attributes.getAttribute(BODY);
        if (made != null) {
            return made;
        }
        ObjectNode body = (ObjectNode) JSON.readTree(read(context.requestBody().get()));
        JsonNode records = body.get("UsageRecords");
        if (records == null || records.size() != licences.size()) {
            throw new IllegalStateException("BatchMeterUsage carries " + (records == null ? 0 : records.size())
                    + " usage records for " + licences.size() + " licences");
        }
        for (int i = 0; i < licences.size(); i++) {
            ((ObjectNode) records.get(i)).put("LicenseArn", licences.get(i));
        }
        made = JSON.writeValueAsBytes(body);
        attributes.putAttribute(BODY, made);
        return made;
    }

    private static byte[] read(RequestBody body) {
        try (InputStream in = body.contentStreamProvider().newStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
