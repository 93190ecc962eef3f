package dev.keel.broker.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ReassignmentsTest {

    @Test
    void spreadsTheLeavingBrokersReplicasEvenlyOverTheOthers() {
        Map<TopicPartition, List<Integer>> hosted = new HashMap<>();
        for (int p = 0; p < 9; p++) {
            hosted.put(new TopicPartition("orders", p), List.of(5));
        }
        Map<TopicPartition, List<Integer>> moves = Reassignments.awayFrom(5, hosted, List.of(0, 1, 2));

        assertThat(moves).hasSize(9);
        assertThat(moves.values()).allSatisfy(replicas -> assertThat(replicas).doesNotContain(5).hasSize(1));
        Map<Integer, Long> perBroker = moves.values().stream()
                .collect(Collectors.groupingBy(r -> r.get(0), Collectors.counting()));
        assertThat(perBroker).containsOnly(Map.entry(0, 3L), Map.entry(1, 3L), Map.entry(2, 3L));
    }

    @Test
    void keepsTheOtherReplicasAndTheLeavingOnesPosition() {
        TopicPartition p = new TopicPartition("__consumer_offsets", 4);
        Map<TopicPartition, List<Integer>> moves = Reassignments.awayFrom(3, Map.of(p, List.of(3, 0, 1)),
                List.of(0, 1, 2, 4));

        assertThat(moves.get(p)).as("replaced in first place, by a broker not already holding it")
                .isEqualTo(List.of(2, 0, 1));
    }

    @Test
    void isTheSamePlanWhenRestarted() {
        Map<TopicPartition, List<Integer>> hosted = Map.of(new TopicPartition("a", 0), List.of(4, 1),
                new TopicPartition("a", 1), List.of(0, 4), new TopicPartition("b", 0), List.of(4));
        assertThat(Reassignments.awayFrom(4, hosted, List.of(0, 1, 2)))
                .isEqualTo(Reassignments.awayFrom(4, new HashMap<>(hosted), List.of(0, 1, 2)));
    }

    @Test
    void refusesWhenNoOtherBrokerCanTakeAReplica() {
        TopicPartition p = new TopicPartition("orders", 0);
        assertThatThrownBy(() -> Reassignments.awayFrom(2, Map.of(p, List.of(0, 1, 2)), List.of(0, 1)))
                .isInstanceOf(Reassignments.Impossible.class)
                .hasMessageContaining("orders-0").hasMessageContaining("no other broker");
    }
}
