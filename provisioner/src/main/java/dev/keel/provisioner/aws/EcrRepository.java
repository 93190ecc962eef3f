package dev.keel.provisioner.aws;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The private ECR repository an image reference points at ({@code <account>.dkr.ecr.<region>.amazonaws.com/<name>},
 * a pull-through cache included): brokers pull from it only after logging in with their instance role, which then
 * needs ECR's pull actions on this repository.
 */
record EcrRepository(String registry, String account, String region, String name) {

    private static final Pattern ECR = Pattern.compile(
            "(([0-9]{12})\\.dkr\\.ecr\\.([a-z0-9-]+)\\.amazonaws\\.com(?:\\.cn)?)/([a-z0-9._/-]+)(?:[:@].*)?");

    /** The repository of {@code image}, or empty when the image lives elsewhere (a public registry, ECR Public). */
    static Optional<EcrRepository> of(String image) {
        Matcher m = image == null ? null : ECR.matcher(image);
        if (m == null || !m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new EcrRepository(m.group(1), m.group(2), m.group(3), m.group(4)));
    }

    String arn() {
        return "arn:" + DesiredState.partition(region) + ":ecr:" + region + ":" + account + ":repository/" + name;
    }
}
