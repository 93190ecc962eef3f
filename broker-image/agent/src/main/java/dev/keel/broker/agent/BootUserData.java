package dev.keel.broker.agent;

/**
 * The node spec in a broker's EC2 user data. The provisioner writes a boot script that carries the spec between two
 * fixed lines (contract/README.md); user data that is the JSON alone is taken as it is.
 */
public final class BootUserData {

    private static final String START = "cat > /etc/keel/node-spec.json <<'KEEL_NODE_SPEC'\n";
    private static final String END = "\nKEEL_NODE_SPEC\n";

    private BootUserData() {
    }

    public static String nodeSpec(String userData) {
        int start = userData.indexOf(START);
        int end = start < 0 ? -1 : userData.indexOf(END, start + START.length());
        if (start >= 0 && end < 0) {
            throw new SpecException("(user data)", "the boot script's node spec has no closing KEEL_NODE_SPEC line");
        }
        return start < 0 ? userData : userData.substring(start + START.length(), end);
    }
}
