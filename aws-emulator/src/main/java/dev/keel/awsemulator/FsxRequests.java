package dev.keel.awsemulator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** What every FSx operation does alike: filters, pages, not-found errors, made-up ids and addresses, ONTAP names. */
final class FsxRequests {

    static final Pattern ONTAP_NAME = Pattern.compile("[A-Za-z0-9_]+");
    private static final int PAGE_LIMIT = 50;

    private FsxRequests() {
    }

    static Map<String, List<String>> filters(JsonNode request, Set<String> known) {
        Map<String, List<String>> filters = new HashMap<>();
        for (JsonNode filter : Json.list(request, "Filters")) {
            String name = Json.string(filter, "Name");
            if (name == null || !known.contains(name)) {
                throw new AwsError("BadRequest", "Invalid filter name " + name + "; valid names: " + known);
            }
            filters.computeIfAbsent(name, k -> new ArrayList<>()).addAll(Json.strings(filter, "Values"));
        }
        return filters;
    }

    static boolean matches(Map<String, List<String>> filters, String name, String value) {
        List<String> values = filters.get(name);
        return values == null || values.contains(value);
    }

    /** AWS-style pagination: at most MaxResults (and the service's own page limit), NextToken opaque. */
    static <T> JsonNode page(JsonNode request, List<T> items, String member,
                                     java.util.function.Function<T, JsonNode> render) {
        Integer maxResults = Json.integer(request, "MaxResults");
        if (maxResults != null && maxResults < 1) {
            throw new AwsError("BadRequest", "MaxResults must be greater than 0");
        }
        int size = Math.min(maxResults == null ? PAGE_LIMIT : maxResults, PAGE_LIMIT);
        int start = 0;
        String nextToken = Json.string(request, "NextToken");
        if (nextToken != null) {
            try {
                String decoded = new String(Base64.getDecoder().decode(nextToken), StandardCharsets.UTF_8);
                if (!decoded.startsWith(member + ":")) {
                    throw new IllegalArgumentException();
                }
                start = Integer.parseInt(decoded.substring(member.length() + 1));
            } catch (IllegalArgumentException e) {
                throw new AwsError("BadRequest", "Invalid NextToken");
            }
        }
        int end = Math.min(items.size(), start + size);
        ObjectNode out = Json.object();
        out.set(member, Json.arrayOf(items.subList(Math.min(start, items.size()), end), render));
        if (end < items.size()) {
            out.put("NextToken", Base64.getEncoder().encodeToString((member + ":" + end).getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    /** The answer to a delete: the resource's id, and that it is being deleted. */
    static ObjectNode deleting(String idMember, String id) {
        ObjectNode out = Json.object();
        out.put(idMember, id);
        out.put("Lifecycle", "DELETING");
        return out;
    }

    static AwsError notFound(String code, String what, String id) {
        return new AwsError(code, what + " " + id + " does not exist");
    }

    static String hex(int length) {
        StringBuilder out = new StringBuilder(length);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < length; i++) {
            out.append(Character.forDigit(random.nextInt(16), 16));
        }
        return out.toString();
    }

    /** A made-up address in 198.19.0.0/16, the range FSx uses by default for Multi-AZ endpoints. */
    static String ip() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return "198.19." + random.nextInt(256) + "." + (1 + random.nextInt(254));
    }
}
