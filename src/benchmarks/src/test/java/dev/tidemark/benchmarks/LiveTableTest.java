package dev.tidemark.benchmarks;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiveTableTest {

  private static final long RECORDS = 2_000_000;
  private static final long STARTUP_RECORDS = 20_000;
  private static final S5Topic TOPIC = new S5Topic("127.0.0.1:9092", "s5", RECORDS, 0, RECORDS);

  @Test
  void theFixedCostIsTheShortTopicsTimeAndTheRateOnceRunningWhatTheLongRunAddsToIt() {
    // tidemark: 6 s for 20,000 records, 10 s for 2M, so 1,980,000 records in 4 s once running;
    // the hand-written job: 4 s and 9 s, 1,980,000 records in 5 s.
    Map<LiveVariant, List<Result>> results =
        Map.of(
            LiveVariant.TIDEMARK, List.of(run(10_000), run(9_000), run(11_000)),
            LiveVariant.NATIVE_FLINK, List.of(run(9_000), run(8_000), run(10_000)));
    Map<LiveVariant, List<Result>> startups =
        Map.of(
            LiveVariant.TIDEMARK, List.of(startup(6_000), startup(5_000), startup(7_000)),
            LiveVariant.NATIVE_FLINK, List.of(startup(4_000), startup(3_000), startup(5_000)));

    String table = LiveTable.of(results, startups, TOPIC, 2);

    assertThat(table, containsString("| 6.0 | 495,000 |"));
    assertThat(table, containsString("| 4.0 | 396,000 |"));
    // They take as long where 6 s + N / 495k = 4 s + N / 396k: N = 3,960,000.
    assertThat(
        table,
        containsString(
            "1.25x once running, after a fixed cost of 6.0 s against 4.0 s;"
                + " as fast over the whole run from about 3,960,000 records"));
  }

  private static Result run(long millis) {
    return new Result(RECORDS, millis, RECORDS, 0);
  }

  private static Result startup(long millis) {
    return new Result(STARTUP_RECORDS, millis, STARTUP_RECORDS, 0);
  }
}
