package dev.tidemark.pipelines.cli;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --jobName}'s default names the pipeline and the kinds of its inputs. */
class DefaultJobNameTest {

  @Test
  void namesThePipelineAndTheKindOfItsSource() {
    assertThat(
        DefaultJobName.of("metrics", List.of("--source=kafka://localhost:9092/stats", "--x=y")),
        equalTo("tidemark-metrics-kafka"));
    assertThat(
        DefaultJobName.of("count", List.of("--source=socket://localhost:9999")),
        equalTo("tidemark-count-socket"));
  }

  @Test
  void aPathIsAFileAndNoSourceIsTheSample() {
    assertThat(
        DefaultJobName.of("count", List.of("--source=/data/events.csv")),
        equalTo("tidemark-count-file"));
    assertThat(
        DefaultJobName.of("count", List.of("--source=C:\\data\\events.csv")),
        equalTo("tidemark-count-file"));
    assertThat(DefaultJobName.of("count", List.of()), equalTo("tidemark-count-sample"));
  }

  @Test
  void aJoinNamesEachKindOfItsInputsOnce() {
    assertThat(
        DefaultJobName.of(
            "join", List.of("--orders=kafka://h:9092/orders", "--coupons=kafka://h:9092/coupons")),
        equalTo("tidemark-join-kafka"));
    assertThat(
        DefaultJobName.of(
            "join", List.of("--orders=kafka://h:9092/orders", "--coupons=socket://h:9999")),
        equalTo("tidemark-join-kafka-socket"));
  }
}
