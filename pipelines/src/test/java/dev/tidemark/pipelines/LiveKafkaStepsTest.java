package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;

import dev.tidemark.pipelines.config.EventTimeSettings;
import dev.tidemark.pipelines.io.OutputSinks;
import dev.tidemark.pipelines.io.PipelineInput;
import dev.tidemark.pipelines.io.UnaskedKafka;
import dev.tidemark.pipelines.steps.PerWindowCounts;
import dev.tidemark.transforms.testing.PipelineSteps;
import dev.tidemark.transforms.windowing.EventTimeWindowing;
import java.time.ZoneId;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What stands between a Kafka topic's source and the step that decides panes. On Flink every Beam
 * step there holds back the watermark between its bundles, and two of them in a row kept the
 * windows of a 2M-record backlog open until all of it was read ({@code RecordParser} says why): the
 * records are parsed in the step that gathers them, and no other step comes before the shuffle.
 */
class LiveKafkaStepsTest {

  private static final EventTimeSettings EVENT_TIME = UnaskedKafka.EVENT_TIME;

  /** {@code metrics} of a topic, built with the sinks of a test. */
  static Pipeline metricsOfATopic() {
    Pipeline pipeline = Pipeline.create(PipelineOptionsFactory.create());
    PerWindowCounts.assemble(
        pipeline,
        new PerWindowCounts.Settings(
            UnaskedKafka.topic("stats", PipelineInput.METRICS),
            MetricsPipeline.FORMAT,
            EVENT_TIME,
            EventTimeWindowing.fixed(Duration.standardSeconds(1)),
            collectingSinks()),
        result -> MetricsPipeline.json(result, ZoneId.of("UTC")),
        MetricsPipeline::windowKey,
        MetricsPipeline.TABLE);
    return pipeline;
  }

  @Test
  void theRecordsAreParsedWhereTheyAreGatheredAndNoOtherStepComesBeforeThePaneStep() {
    Pipeline pipeline = metricsOfATopic();

    // The primitive steps of the count, outside the source's own read.
    List<String> steps = PipelineSteps.of(pipeline);
    List<String> countSteps =
        steps.stream()
            .filter(step -> step.startsWith("CountPerWindow/"))
            .filter(step -> !step.startsWith("CountPerWindow/ReadAndParse/ReadKafka/"))
            .filter(step -> steps.stream().noneMatch(other -> other.startsWith(step + "/")))
            .toList();
    assertThat(
        countSteps,
        contains(
            "CountPerWindow/DecidePanes/CountAndSum/ParseAndGather",
            "CountPerWindow/DecidePanes/CountAndSum/DecidePanes"));
  }

  /**
   * A join of two topics parses each topic's batches where it gathers them, as a count does: no
   * step of their own between the sources and the join's shuffle holds the watermark back.
   */
  @Test
  void aJoinOfTwoTopicsParsesEachTopicsBatchesWhereItGathersThem() {
    Pipeline pipeline = Pipeline.create(PipelineOptionsFactory.create());

    JoinPipeline.assemble(
        pipeline,
        new JoinPipeline.Settings(
            UnaskedKafka.topic("orders", PipelineInput.ORDERS),
            UnaskedKafka.topic("coupons", PipelineInput.COUPONS),
            EVENT_TIME,
            EventTimeWindowing.fixed(Duration.standardSeconds(5)),
            collectingSinks()));

    List<String> steps = PipelineSteps.of(pipeline);
    assertThat(
        steps,
        hasItems(
            "LeftJoin/DecidePanes/LeftParseAndGather", "LeftJoin/DecidePanes/RightParseAndGather"));
    assertThat(steps, not(hasItem(containsString("ParseBatch"))));
  }

  private static OutputSinks collectingSinks() {
    return new OutputSinks(new CollectingSink(), new CollectingSink(), new CollectingSink());
  }
}
