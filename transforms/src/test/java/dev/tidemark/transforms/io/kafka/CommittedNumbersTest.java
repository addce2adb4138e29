package dev.tidemark.transforms.io.kafka;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.Test;

/** The exact set of a shard's numbers in Kafka, as its marker holds it. */
class CommittedNumbersTest {

  private static final String RUN = "run-1";

  @Test
  void numbersHandedOverOutOfOrderAreInOnlyOnceAdded() {
    CommittedNumbers numbers = CommittedNumbers.none(RUN);
    // (1) 0 to 4, then 10 to 14, as a later buffer emptied before an earlier one.
    addRange(numbers, 0, 5);
    addRange(numbers, 10, 15);
    assertThat(in(numbers, 0, 20), equalTo(List.of(0, 1, 2, 3, 4, 10, 11, 12, 13, 14)));
    assertThat(numbers.marker(), equalTo(new OffsetAndMetadata(5, RUN + " 10-15")));
    // (2) Then 5 to 9: the gap closes, and the marker is a plain offset again.
    addRange(numbers, 5, 10);
    assertThat(in(numbers, 0, 20).size(), equalTo(15));
    assertThat(numbers.marker(), equalTo(new OffsetAndMetadata(15, RUN)));
  }

  @Test
  void rangesThatTouchJoin() {
    CommittedNumbers numbers = CommittedNumbers.none(RUN);
    numbers.add(7);
    numbers.add(5);
    numbers.add(6);
    numbers.add(9);
    numbers.add(9);
    assertThat(numbers.marker(), equalTo(new OffsetAndMetadata(0, RUN + " 5-8,9-10")));
    numbers.add(8);
    assertThat(numbers.marker(), equalTo(new OffsetAndMetadata(0, RUN + " 5-10")));
  }

  @Test
  void aMarkerReadsBackAsTheNumbersItWasWrittenFrom() {
    CommittedNumbers written = CommittedNumbers.none(RUN);
    addRange(written, 0, 3);
    addRange(written, 7, 9);
    addRange(written, 20, 21);
    CommittedNumbers read = CommittedNumbers.of(RUN, written.marker());
    assertThat(in(read, 0, 25), equalTo(in(written, 0, 25)));
    assertThat(read.marker(), equalTo(written.marker()));
  }

  @Test
  void anotherRunsMarkerOrNoneSaysNothingIsIn() {
    assertThat(CommittedNumbers.of(RUN, null).isEmpty(), equalTo(true));
    CommittedNumbers other = CommittedNumbers.of(RUN, new OffsetAndMetadata(40, "run-2 50-60"));
    assertThat(other.isEmpty(), equalTo(true));
    assertThat(other.contains(0), equalTo(false));
    // A marker written before the marker held ranges: the run id alone.
    CommittedNumbers plain = CommittedNumbers.of(RUN, new OffsetAndMetadata(40, RUN));
    assertThat(plain.contains(39), equalTo(true));
    assertThat(plain.contains(40), equalTo(false));
  }

  @Test
  void numbersTooScatteredForAMarkerAreRefusedWithTheReason() {
    CommittedNumbers numbers = CommittedNumbers.none(RUN);
    for (long number = 1; number < 2_000; number += 2) {
      numbers.add(number);
    }
    IllegalStateException refused = assertThrows(IllegalStateException.class, numbers::marker);
    assertThat(refused.getMessage(), containsString("out of order"));
    assertThat(refused.getMessage(), containsString("1000 ranges"));
  }

  private static void addRange(CommittedNumbers numbers, int from, int to) {
    for (int number = from; number < to; number++) {
      numbers.add(number);
    }
  }

  private static List<Integer> in(CommittedNumbers numbers, int from, int to) {
    List<Integer> in = new ArrayList<>();
    for (int number = from; number < to; number++) {
      if (numbers.contains(number)) {
        in.add(number);
      }
    }
    return in;
  }
}
