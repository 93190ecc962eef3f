package dev.keel.provisioner.aws;

import dev.keel.provisioner.ProvisioningException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * The machine image brokers boot: stock Amazon Linux 2023 for arm64 (the catalog's instance types are Graviton),
 * read from the public SSM parameter AWS keeps current in every region, through the customer's role. It is read when
 * an instance's launch template is made and then kept there: AWS moves the parameter with every AMI release, and
 * following it would replace every broker each time.
 */
public final class MachineImages {

    /** AWS's public parameter naming the newest Amazon Linux 2023 arm64 AMI of the region it is read in. */
    public static final String PARAMETER = "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-arm64";

    private MachineImages() {
    }

    /** The AMI id the parameter names in the clients' region; refused (not retried) where the region has none. */
    static String resolve(AwsClients.Customer aws, String region) {
        try {
            String image = aws.ssm().getParameter(b -> b.name(PARAMETER)).parameter().value();
            if (image == null || !image.startsWith("ami-")) {
                throw unavailable(region, "it names no AMI (" + image + ")");
            }
            return image;
        } catch (SdkException e) {
            if (AwsCalls.hasCode(e, "ParameterNotFound", "UnrecognizedClientException")) {
                throw unavailable(region, "AWS publishes no such parameter there, or the region is not enabled in the account");
            }
            throw AwsCalls.classify("ssm:GetParameter", e);
        }
    }

    private static ProvisioningException unavailable(String region, String why) {
        return new ProvisioningException("NO_MACHINE_IMAGE", "No Amazon Linux 2023 arm64 image can be found in "
                + region + " (SSM parameter " + PARAMETER + "): " + why + ". Brokers could not boot there; choose "
                + "another region.", false);
    }
}
