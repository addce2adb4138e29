package dev.tidemark.pipelines;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.runners.TransformHierarchy;
import org.apache.beam.sdk.values.PValue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where each pipeline follows the client that waits for it ({@code runner.ClientLifelineFn}): in
 * one step, beside the write of the late records, and not in the results' path. On Flink each step
 * a row passes costs the row a bundle of its own and a pass over the step's metrics, which a step
 * before the results' write added to every row.
 */
class ClientLifelineStepTest {

  static Stream<Arguments> pipelines() {
    return Stream.of(
        Arguments.of("count", CountPipeline.build(options(CountPipeline.Options.class))),
        Arguments.of("metrics", MetricsPipeline.build(options(MetricsPipeline.Options.class))),
        Arguments.of("join", JoinPipeline.build(options(JoinPipeline.Options.class))),
        Arguments.of("sql", SqlPipeline.build(options(SqlPipeline.Options.class))),
        Arguments.of("metrics of a Kafka topic", LiveKafkaStepsTest.metricsOfATopic()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pipelines")
  void theClientIsFollowedBesideTheLateRecordsWriteNotBeforeTheResultsWrite(
      String name, Pipeline pipeline) {
    Steps graph = Steps.of(pipeline);
    Map<String, List<PValue>> steps = graph.inputs();
    Map<PValue, String> producers = graph.producers();

    List<String> following = named(steps, "FollowTheClient/");
    assertThat(following, hasSize(1));
    PValue followed = only(steps.get(following.get(0)));
    assertThat(
        "a late records' write takes the same elements",
        named(steps, "WriteLate").stream().anyMatch(step -> steps.get(step).contains(followed)),
        equalTo(true));

    PValue results = only(steps.get(named(steps, "WriteResults/").get(0)));
    assertThat(producers.get(results), not(startsWith("FollowTheClient")));
  }

  private static List<String> named(Map<String, List<PValue>> steps, String prefix) {
    return steps.keySet().stream().filter(step -> step.startsWith(prefix)).toList();
  }

  private static PValue only(List<PValue> inputs) {
    assertThat(inputs, hasSize(1));
    return inputs.get(0);
  }

  /**
   * A pipeline's primitive steps, by full name: the inputs of each, in topological order, and the
   * step that produces each collection.
   */
  private record Steps(Map<String, List<PValue>> inputs, Map<PValue, String> producers) {

    static Steps of(Pipeline pipeline) {
      Steps steps = new Steps(new LinkedHashMap<>(), new HashMap<>());
      pipeline.traverseTopologically(
          new Pipeline.PipelineVisitor.Defaults() {
            @Override
            public void visitPrimitiveTransform(TransformHierarchy.Node node) {
              steps.inputs.put(node.getFullName(), List.copyOf(node.getInputs().values()));
              node.getOutputs()
                  .values()
                  .forEach(out -> steps.producers.put(out, node.getFullName()));
            }
          });
      return steps;
    }
  }

  private static <T extends PipelineOptions> T options(Class<T> type) {
    return PipelineOptionsFactory.fromArgs().as(type);
  }
}
