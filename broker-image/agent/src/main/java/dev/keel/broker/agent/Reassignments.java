package dev.keel.broker.agent;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;

/** Where a draining broker's replicas go. */
final class Reassignments {

    /** A partition cannot leave the broker: every other broker already holds one of its replicas. */
    static final class Impossible extends RuntimeException {
        Impossible(String message) {
            super(message);
        }
    }

    private Reassignments() {
    }

    /**
     * The new replica list of each partition in {@code hosted} (partition → current replicas, all containing
     * {@code leaving}): {@code leaving} is swapped, in place so the preferred leader's position is kept, for the other
     * broker that takes fewest of the moved replicas so far and does not hold the partition yet. Deterministic, so a
     * restarted drain plans the same moves.
     */
    static Map<TopicPartition, List<Integer>> awayFrom(int leaving, Map<TopicPartition, List<Integer>> hosted,
                                                       List<Integer> others) {
        Map<Integer, Integer> taken = new HashMap<>();
        others.forEach(b -> taken.put(b, 0));
        Map<TopicPartition, List<Integer>> moves = new LinkedHashMap<>();
        List<TopicPartition> order = hosted.keySet().stream()
                .sorted(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition))
                .toList();
        for (TopicPartition partition : order) {
            List<Integer> replicas = hosted.get(partition);
            Integer target = others.stream().filter(b -> !replicas.contains(b))
                    .min(Comparator.comparingInt((Integer b) -> taken.get(b)).thenComparingInt(b -> b))
                    .orElseThrow(() -> new Impossible(partition + " has " + replicas.size() + " replicas "
                            + replicas + " and there is no other broker to move broker " + leaving + "'s replica to "
                            + "(other brokers: " + others + ")"));
            taken.merge(target, 1, Integer::sum);
            List<Integer> moved = new ArrayList<>(replicas);
            moved.set(moved.indexOf(leaving), target);
            moves.put(partition, List.copyOf(moved));
        }
        return moves;
    }
}
