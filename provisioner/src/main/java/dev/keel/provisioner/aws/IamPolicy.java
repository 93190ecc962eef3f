package dev.keel.provisioner.aws;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** An IAM policy document (identity, trust or resource policy) as data, written in AWS's own JSON form by {@link #json()}. */
public record IamPolicy(@JsonProperty("Version") String version, @JsonProperty("Statement") List<Statement> statements) {

    public static final String VERSION = "2012-10-17";

    public IamPolicy(List<Statement> statements) {
        this(VERSION, statements);
    }

    /**
     * One statement. {@code principal} is {@code "*"} or a map such as {@code {"Service": "ec2.amazonaws.com"}};
     * absent members are left out of the JSON.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Statement(@JsonProperty("Sid") String sid, @JsonProperty("Effect") String effect,
                            @JsonProperty("Principal") Object principal, @JsonProperty("Action") List<String> actions,
                            @JsonProperty("Resource") List<String> resources,
                            @JsonProperty("Condition") Map<String, Map<String, String>> condition) {

        public static Statement allow(String sid, List<String> actions, List<String> resources) {
            return new Statement(sid, "Allow", null, actions, resources, null);
        }
    }

    /**
     * Actions of one service, e.g. {@code actions("s3", "GetObject")}: what a policy grants brokers, kept apart in
     * form from what the provisioner itself calls ({@link RequiredPermissions}).
     */
    public static List<String> actions(String service, String... names) {
        return java.util.Arrays.stream(names).map(name -> service + ":" + name).toList();
    }

    public String json() {
        return Json.write(this);
    }
}
