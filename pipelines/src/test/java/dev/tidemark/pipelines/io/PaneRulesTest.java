package dev.tidemark.pipelines.io;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.startsWith;

import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.util.List;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;

/** The one rules line of a run names its judge and every value in force. */
class PaneRulesTest {

  private static final EventTimeSettings EVENT_TIME = UnaskedKafka.EVENT_TIME;

  private static Source topic(String name) {
    return UnaskedKafka.topic(name, PipelineInput.METRICS);
  }

  @Test
  void aLiveRunSaysItsRulesAndTheirValues() {
    EventTimeWindowing windowing =
        EventTimeWindowing.fixed(Duration.standardSeconds(1))
            .withAllowedLateness(Duration.standardMinutes(1))
            .withIdleFlush(Duration.millis(2500));
    String line = PaneRules.line(List.of(topic("stats")), false, windowing, EVENT_TIME);
    assertThat(line, startsWith("kafka://127.0.0.1:9/stats: live rules: "));
    assertThat(
        line,
        endsWith(
            "; --windowSize=1s --allowedLateness=1m --maxOutOfOrderness=2s --idleTimeout=3s"
                + " --idleFlush=2500ms --emit=all"));
  }

  @Test
  void aJoinSaysItOnceForBothItsSources() {
    EventTimeWindowing windowing =
        EventTimeWindowing.fixed(Duration.standardSeconds(5)).withFinalPaneOnly();
    String line =
        PaneRules.line(List.of(topic("orders"), topic("coupons")), false, windowing, EVENT_TIME);
    assertThat(
        line, startsWith("kafka://127.0.0.1:9/orders, kafka://127.0.0.1:9/coupons: live rules: "));
    assertThat(line, endsWith(" --emit=final"));
  }
}
