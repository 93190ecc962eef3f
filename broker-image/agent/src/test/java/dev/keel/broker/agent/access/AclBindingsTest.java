package dev.keel.broker.agent.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.junit.jupiter.api.Test;

class AclBindingsTest {
    @Test
    void anAclBecomesTheKafkaBindingOfTheSameSevenFields() {
        var binding = AclBindings.binding(new DesiredAccess.Acl("x", "User:alice", "10.0.0.1", "GROUP", "billing-",
                "PREFIXED", "DESCRIBE_CONFIGS", "DENY"));
        assertThat(binding.toString()).contains("User:alice", "10.0.0.1", "GROUP", "billing-", "DENY");
        assertThat(binding.pattern().patternType()).isEqualTo(PatternType.PREFIXED);
        assertThat(binding.entry().operation()).isEqualTo(AclOperation.DESCRIBE_CONFIGS);
    }

    @Test
    void aNameKafkaDoesNotKnowOrAFilterOnlyValueIsRefusedNamingTheField() {
        assertThatThrownBy(() -> AclBindings.binding(new DesiredAccess.Acl("x", "User:a", "*", "TOPIC", "t",
                "LITERAL", "SHOUT", "ALLOW"))).hasMessage("operation: Kafka has no operation 'SHOUT'");
        assertThatThrownBy(() -> AclBindings.binding(new DesiredAccess.Acl("x", "User:a", "*", "TOPIC", "t",
                "MATCH", "READ", "ALLOW"))).hasMessage("patternType: Kafka has no patternType 'MATCH'");
        assertThatThrownBy(() -> AclBindings.binding(new DesiredAccess.Acl("x", "User:a", "*", "ANY", "t",
                "LITERAL", "READ", "ALLOW"))).hasMessageStartingWith("resourceType:");
        assertThatThrownBy(() -> AclBindings.binding(new DesiredAccess.Acl("x", "User:a", null, "TOPIC", "t",
                "LITERAL", "READ", "ALLOW"))).hasMessage("host: missing");
    }
}
