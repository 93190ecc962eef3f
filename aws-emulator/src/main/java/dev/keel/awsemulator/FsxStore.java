package dev.keel.awsemulator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the emulated FSx holds, in memory: file systems, SVMs and volumes (insertion-ordered, so Describe* pages are
 * stable), the create requests seen by their client tokens, and how long their lifecycles take.
 */
final class FsxStore {

    final Clock clock;
    final FsxLifecycles lifecycles;
    final Map<String, FsxFileSystems.FileSystem> fileSystems = new LinkedHashMap<>();
    final Map<String, FsxStorageVirtualMachines.Svm> svms = new LinkedHashMap<>();
    final Map<String, FsxVolumes.Volume> volumes = new LinkedHashMap<>();
    /** ClientRequestToken of a create → what it created, to answer retries like AWS does. */
    private final Map<String, Idempotent> tokens = new HashMap<>();

    FsxStore(Clock clock, FsxLifecycles lifecycles) {
        this.clock = clock;
        this.lifecycles = lifecycles;
    }

    record Idempotent(String operation, JsonNode request, String resourceId) {
    }

    /** What every FSx resource has: what is set when it is made, and its {@link Changes}. */
    interface Resource {
        String id();

        String arn();

        Instant readyAt();

        /** The static part of its description. */
        ObjectNode base();

        Changes changes();
    }

    /** What changes of a resource once it is made: its tags, and since when it is being deleted. */
    static final class Changes {
        final Map<String, String> tags = new LinkedHashMap<>();
        Instant deletingSince;
    }

    void clear() {
        fileSystems.clear();
        svms.clear();
        volumes.clear();
        tokens.clear();
    }

    /** Forgets what has finished deleting by now. */
    void forgetDeleted() {
        Instant now = clock.instant();
        volumes.values().removeIf(gone(now, lifecycles.volumeDelete()));
        svms.values().removeIf(gone(now, lifecycles.svmDelete()));
        fileSystems.values().removeIf(gone(now, lifecycles.fileSystemDelete()));
    }

    private static Predicate<Resource> gone(Instant now, Duration deleting) {
        return r -> r.changes().deletingSince != null && !now.isBefore(r.changes().deletingSince.plus(deleting));
    }

    <T extends Resource> T find(Map<String, T> resources, String id, String errorCode, String noun) {
        T resource = resources.get(id);
        if (resource == null) {
            throw FsxRequests.notFound(errorCode, noun, id);
        }
        return resource;
    }

    Resource byArn(String arn) {
        for (Map<String, ? extends Resource> map : List.of(fileSystems, svms, volumes)) {
            for (Resource resource : map.values()) {
                if (resource.arn().equals(arn)) {
                    return resource;
                }
            }
        }
        if (!arn.startsWith("arn:aws:fsx:")) {
            throw new AwsError("NotServiceResourceError", "Resource " + arn + " is not an Amazon FSx resource")
                    .with("ResourceARN", arn);
        }
        throw new AwsError("ResourceNotFound", "Resource " + arn + " does not exist").with("ResourceARN", arn);
    }

    /** SVMs and volumes: their static description, lifecycle and tags. */
    ObjectNode describe(Resource child) {
        ObjectNode out = child.base().deepCopy();
        out.put("Lifecycle", childLifecycle(child));
        out.set("Tags", FsxTags.list(child.changes().tags));
        return out;
    }

    String childLifecycle(Resource resource) {
        if (resource.changes().deletingSince != null) {
            return "DELETING";
        }
        return clock.instant().isBefore(resource.readyAt()) ? "CREATING" : "CREATED";
    }

    /** Same token and same parameters: the earlier result; same token, other parameters: an error, as in AWS. */
    Idempotent replay(String operation, String token, JsonNode request) {
        if (token == null) {
            return null;
        }
        Idempotent earlier = tokens.get(operation + "/" + token);
        if (earlier != null && !earlier.request().equals(withoutToken(request))) {
            throw new AwsError("IncompatibleParameterError", "The ClientRequestToken " + token
                    + " was already used for a " + operation + " request with different parameters")
                    .with("Parameter", "ClientRequestToken");
        }
        return earlier;
    }

    void remember(String operation, String token, JsonNode request, String resourceId) {
        if (token != null) {
            tokens.put(operation + "/" + token, new Idempotent(operation, withoutToken(request), resourceId));
        }
    }

    private static JsonNode withoutToken(JsonNode request) {
        ObjectNode copy = (ObjectNode) request.deepCopy();
        copy.remove("ClientRequestToken");
        return copy;
    }
}
